package membound.calibrator.imports;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.profile.Distribution;
import membound.profile.Link;
import membound.profile.Provenance;

/**
 * nccl-tests' (and rccl-tests') {@code all_reduce_perf} table: per message size, time (µs), algorithm bandwidth
 * ({@code algbw} = size / time) and bus bandwidth ({@code busbw} = algbw × 2(n−1)/n for n ranks), GB/s
 * (10^9 bytes), out-of-place and in-place. Columns are found by the header, so the older layout
 * ({@code bytes N type op time algbw busbw error}) reads too.
 *
 * <p>Logs as people publish them: NCCL INFO, MPI, Slurm and elision lines before, after and inside the table
 * are passed over (a line is a row when it starts with a message size); {@code mpirun --tag-output} tags and
 * indentation are taken off by {@link ToolOutput}. Rows whose bandwidth prints as 0.00 (below the table's
 * resolution, or size 0 as {@code -b 1} prints) are skipped. A row with wrong results ({@code #wrong} above 0)
 * is an error. A log that ends without nccl-tests' closing lines is read up to its last whole row and says so.
 *
 * <p>The rank count is inferred from the file: from the rank lines when they list every rank, otherwise from
 * busbw/algbw = 2(n−1)/n over all rows (within their printed precision), at least one more than the highest
 * rank listed. The link's bandwidth is the distribution of busbw over the four largest message sizes, both
 * placements: the plateau a large gradient all-reduce sees.
 */
final class NcclTestsImporter {

    static final String TOOL = "nccl-tests";

    private static final Pattern VERSION = Pattern.compile("^# nccl-tests version (\\S+)");
    private static final Pattern RCCL_VERSION = Pattern.compile("^rccl-tests: Version (\\S+)");
    private static final Pattern TEST = Pattern.compile("^# Collective test starting: (\\S+)");
    private static final Pattern NCCL = Pattern.compile("^#?\\s*NCCL version (\\S+)");
    private static final Pattern SETUP = Pattern.compile(
            "^#?\\s*nThread (\\d+) nGpus (\\d+) minBytes (\\d+) maxBytes (\\d+).*?warmup iters: (\\d+) iters: (\\d+)");
    private static final Pattern RANK = Pattern.compile(
            "^#?\\s*Rank\\s+(\\d+)\\b.*?\\bon\\s+(\\S+)\\s+device\\s+(\\d+)\\s+\\[[^\\]]*\\](?:\\s+(.+?))?\\s*$");
    /** The lines nccl-tests prints after its table, any of which closes it. */
    private static final Pattern CLOSING = Pattern.compile(
            "^# (?:Out of bounds values|Avg bus bandwidth|Collective test concluded)");
    private static final Pattern OUT_OF_BOUNDS = Pattern.compile("^# Out of bounds values\\s*:\\s*(\\d+)\\s+(\\S+)");
    private static final Pattern ROW_START = Pattern.compile("^\\d+\\s");
    private static final int PLATEAU_SIZES = 4;

    /** One placement (out-of-place or in-place) of one row, as printed. */
    private record Result(int line, long size, String type, String redop, boolean inPlace, PrintedNumber time,
                          PrintedNumber algbw, PrintedNumber busbw) {
    }

    private NcclTestsImporter() {
    }

    /** NCCL's INFO lines name the transport of each channel: {@code via NET/IB/0}, {@code via P2P/IPC}, NVLS. */
    private static final Pattern NET_TRANSPORT = Pattern.compile("\\bvia NET/(\\S+)");
    private static final Pattern PEER_TRANSPORT = Pattern.compile("\\bvia (P2P/\\S+|SHM)|\\bNVLS\\b");

    /** Which transports NCCL's INFO lines show, where the log kept them ({@code ncclTransport}: NET, P2P or both). */
    private static void transports(ToolOutput out, Map<String, String> settings) {
        String net = null;
        String peer = null;
        for (String line : out.lines) {
            Matcher n = NET_TRANSPORT.matcher(line);
            if (net == null && n.find()) {
                net = "NET/" + n.group(1);
            }
            Matcher p = PEER_TRANSPORT.matcher(line);
            if (peer == null && p.find()) {
                peer = p.group().replace("via ", "");
            }
        }
        if (net != null) {
            settings.put("ncclTransportNet", net);
        }
        if (peer != null) {
            settings.put("ncclTransportPeer", peer);
        }
    }

    static ImportedFigures parse(ToolOutput out) {
        Matcher test = out.match(TEST);
        if (test != null && !test.group(1).startsWith("all_reduce_perf")) {
            throw out.bad(out.find(TEST, 0), "come from all_reduce_perf", test.group(1));
        }
        String version = version(out);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("test", test == null ? "all_reduce_perf" : test.group(1));
        Matcher nccl = out.match(NCCL);
        if (nccl != null) {
            settings.put("ncclVersion", nccl.group(1));
        }
        transports(out, settings);
        Integer setupRanks = setup(out, settings);
        RankLines rankLines = RankLines.of(out);

        int header = header(out);
        Columns c = Columns.of(out, header, out.lines.get(header).substring(1).trim().split("\\s+"));
        Double secondsPerTimeUnit = timeUnit(out, header);
        int end = out.find(CLOSING, header);
        List<String> skipped = new ArrayList<>();
        Matcher bounds = out.match(OUT_OF_BOUNDS);
        if (bounds != null && !"OK".equals(bounds.group(2))) {
            throw out.bad(out.find(OUT_OF_BOUNDS, 0), "report no out-of-bounds values", bounds.group(0));
        }
        List<Result> results = results(out, header, end, c, skipped);
        if (results.isEmpty()) {
            throw out.bad("have at least one row in its result table");
        }
        List<String> inferred = new ArrayList<>();
        RankCount ranks = RankCount.infer(out, results, rankLines, setupRanks);
        if (ranks.ranks() != null) {
            settings.put("ranks", Integer.toString(ranks.ranks()));
            settings.put("ranksFrom", ranks.from());
            inferred.add("ranks " + ranks.ranks() + " from " + ranks.from());
        }
        settings.put("rankLines", Integer.toString(rankLines.ranks().size()));

        List<Link.Measurement> measurements = new ArrayList<>();
        List<Long> zeroSizes = new ArrayList<>();
        for (Result r : results) {
            if (r.size() == 0 || r.algbw().value() == 0 || r.busbw().value() == 0) {
                zeroSizes.add(r.size());
                continue;
            }
            if (secondsPerTimeUnit == null) {
                secondsPerTimeUnit = guessTimeUnit(r);
                settings.put("timeUnit", secondsPerTimeUnit == 1e-3 ? "ms (no units line)" : "us (no units line)");
            }
            measurements.add(measurement(out, r, secondsPerTimeUnit, ranks.ranks(), version, settings));
        }
        if (!zeroSizes.isEmpty()) {
            skipped.add(zeroSizes.size() + " results that print 0.00 GB/s (sizes " + zeroSizes.get(0) + " to "
                    + zeroSizes.get(zeroSizes.size() - 1) + " bytes), below the table's resolution");
        }
        if (measurements.isEmpty()) {
            throw out.bad("have at least one row with a bandwidth above 0.00 GB/s (with one rank busbw is 0: "
                    + "no link was crossed)");
        }
        List<Long> sizes = measurements.stream().map(Link.Measurement::messageBytes).distinct()
                .sorted(Comparator.reverseOrder()).limit(PLATEAU_SIZES).toList();
        double[] plateau = measurements.stream().filter(m -> sizes.contains(m.messageBytes()))
                .mapToDouble(Link.Measurement::busBytesPerSecond).toArray();
        settings.put("linkBandwidth", "busbw over the " + sizes.size() + " largest sizes, both placements");
        return new ImportedFigures(TOOL, version, new TreeMap<>(settings), rankLines.deviceName(), List.of(),
                measurements, Distribution.ofSamples(plateau), null, rankLines.hosts(), skipped, inferred);
    }

    private static String version(ToolOutput out) {
        Matcher nccl = out.match(VERSION);
        if (nccl != null) {
            return nccl.group(1);
        }
        Matcher rccl = out.match(RCCL_VERSION);
        return rccl == null ? null : "rccl-tests " + rccl.group(1);
    }

    /** Records the setup line; returns nThread × nGpus, the ranks of one process. */
    private static Integer setup(ToolOutput out, Map<String, String> settings) {
        Matcher setup = out.match(SETUP);
        if (setup == null) {
            return null;
        }
        settings.put("nThread", setup.group(1));
        settings.put("nGpus", setup.group(2));
        settings.put("minBytes", setup.group(3));
        settings.put("maxBytes", setup.group(4));
        settings.put("warmupIters", setup.group(5));
        settings.put("iters", setup.group(6));
        try {
            return Math.multiplyExact(Integer.parseInt(setup.group(1)), Integer.parseInt(setup.group(2)));
        } catch (NumberFormatException | ArithmeticException e) {
            throw out.bad(out.find(SETUP, 0), "have nThread x nGpus that fit a count of ranks", setup.group(0).strip());
        }
    }

    private static int header(ToolOutput out) {
        for (int i = 0; i < out.lines.size(); i++) {
            String line = out.lines.get(i);
            if (line.startsWith("#") && line.contains("algbw") && line.contains("busbw")) {
                return i;
            }
        }
        throw out.bad("contain nccl-tests' result table (# size count type redop root time algbw busbw #wrong ...)");
    }

    /** The units line says (us) in current versions; early ones printed ms and no units line (null: unknown). */
    private static Double timeUnit(ToolOutput out, int header) {
        String units = header + 1 < out.lines.size() && out.lines.get(header + 1).startsWith("#")
                ? out.lines.get(header + 1) : "";
        return units.contains("(us)") ? Double.valueOf(1e-6) : units.contains("(ms)") ? Double.valueOf(1e-3) : null;
    }

    /** No units line: the unit is whichever of µs and ms makes algbw = size / time; checked row by row after. */
    private static double guessTimeUnit(Result r) {
        double algbw = r.algbw().value();
        double time = r.time().value();
        return Math.abs(r.size() / (time * 1e-3) / 1e9 - algbw) < Math.abs(r.size() / (time * 1e-6) / 1e9 - algbw)
                ? 1e-3 : 1e-6;
    }

    /** The table's rows between its header and its closing lines (or the end of a log cut short). */
    private static List<Result> results(ToolOutput out, int header, int end, Columns c, List<String> skipped) {
        int last = end < 0 ? out.lines.size() : end;
        List<Result> results = new ArrayList<>();
        int passedOver = 0;
        for (int i = header + 1; i < last; i++) {
            String line = out.lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (!ROW_START.matcher(line).find()) {
                passedOver++;
                continue;
            }
            String[] f = line.split("\\s+");
            if (f.length != c.count()) {
                if (end < 0 && isLastLine(out, i)) {
                    skipped.add("the last row, cut off: " + line);
                    continue;
                }
                throw out.bad(i, "have " + c.count() + " columns per row, as its header", line);
            }
            long size = out.positiveOrZero(i, "size", f[c.size()]);
            for (int placement = 0; placement < 2; placement++) {
                checkWrong(out, i, f[c.wrong()[placement]], line);
                results.add(new Result(i, size, f[c.type()], f[c.redop()], placement == 1,
                        out.printed(i, "time", f[c.time()[placement]]), bandwidth(out, i, "algbw", f[c.algbw()[placement]]),
                        bandwidth(out, i, "busbw", f[c.busbw()[placement]])));
            }
        }
        if (passedOver > 0) {
            skipped.add(passedOver + " lines inside the table that are not rows (NCCL INFO, MPI, elisions) passed over");
        }
        if (end < 0) {
            skipped.add(ImportedFigures.CUT_OFF + " \"# Out of bounds values\" or \"# Avg bus bandwidth\" line: the log ends after "
                    + "its last row shown (a cut-off paste or run)");
        }
        return results;
    }

    private static boolean isLastLine(ToolOutput out, int line) {
        for (int i = line + 1; i < out.lines.size(); i++) {
            if (!out.lines.get(i).isBlank()) {
                return false;
            }
        }
        return true;
    }

    private static PrintedNumber bandwidth(ToolOutput out, int line, String field, String text) {
        double value = out.number(line, field, text);
        if (value < 0) {
            throw out.bad(line, "have bandwidths >= 0", text);
        }
        return value == 0 ? PrintedNumber.exact(0) : out.printed(line, field, text);
    }

    private static Link.Measurement measurement(ToolOutput out, Result r, double secondsPerTimeUnit, Integer ranks,
                                                String version, Map<String, String> settings) {
        double seconds = r.time().value() * secondsPerTimeUnit;
        // algbw is size / time and busbw is algbw × 2(n−1)/n, each within the rounding of the printed digits.
        out.agrees(r.line(), "algbw", r.algbw(), r.size() / seconds / 1e9, r.time().relativeRounding());
        if (ranks != null && ranks > 1) {
            out.agrees(r.line(), "busbw", r.busbw(), r.algbw().value() * RankCount.busFactor(ranks),
                    r.algbw().relativeRounding());
        }
        Map<String, String> rowSettings = new LinkedHashMap<>(settings);
        rowSettings.put("redop", r.redop());
        return new Link.Measurement("all_reduce", ranks, r.size(), r.type(), r.inPlace(), seconds * 1e9,
                r.algbw().value() * 1e9, r.busbw().value() * 1e9,
                Provenance.imported(TOOL, version, settings.get("test"), out.file, rowSettings));
    }

    private static void checkWrong(ToolOutput out, int line, String text, String row) {
        if ("N/A".equals(text)) {
            return;
        }
        double wrong = out.number(line, "#wrong", text);
        // The current layout counts wrong elements (0 is right); the older one prints a max error such as 2e-07.
        if (wrong >= 1 || wrong < 0) {
            throw out.bad(line, "have no wrong results (a wrong answer is an error, not a number)", row);
        }
    }

    /** The ranks the log lists: {@code #  Rank  3 Group  0 Pid 123 on host device  3 [0x61] NVIDIA A100-SXM4-40GB}. */
    record RankLines(List<Integer> ranks, List<String> hosts, String deviceName) {

        static RankLines of(ToolOutput out) {
            List<Integer> ranks = new ArrayList<>();
            List<String> hosts = new ArrayList<>();
            String deviceName = null;
            for (int i = 0; i < out.lines.size(); i++) {
                Matcher rank = RANK.matcher(out.lines.get(i));
                if (!rank.matches()) {
                    continue;
                }
                try {
                    int n = Integer.parseInt(rank.group(1));
                    if (!ranks.contains(n)) {
                        ranks.add(n);
                    }
                } catch (NumberFormatException e) {
                    throw out.bad(i, "have a rank number that fits a count of ranks", rank.group(1));
                }
                if (!hosts.contains(rank.group(2))) {
                    hosts.add(rank.group(2));
                }
                if (deviceName == null && rank.group(4) != null) {
                    deviceName = rank.group(4);
                }
            }
            return new RankLines(List.copyOf(ranks), List.copyOf(hosts), deviceName);
        }

        /** One more than the highest rank listed: the fewest ranks the run can have had. */
        int atLeast() {
            return ranks.stream().mapToInt(Integer::intValue).max().orElse(-1) + 1;
        }

        /** Whether every rank from 0 up is listed. */
        boolean complete() {
            return !ranks.isEmpty() && ranks.size() == atLeast();
        }
    }

    /** How many ranks the run had, and what in the file says so. */
    record RankCount(Integer ranks, String from) {

        /** busbw / algbw of an all-reduce over {@code n} ranks. */
        static double busFactor(int n) {
            return 2.0 * (n - 1) / n;
        }

        static RankCount infer(ToolOutput out, List<Result> results, RankLines lines, Integer setupRanks) {
            double low = 1;
            double high = Double.POSITIVE_INFINITY;
            double ratio = Double.NaN;
            for (Result r : results) {
                if (r.algbw().value() > 0 && r.busbw().value() > 0) {
                    double a = r.algbw().value();
                    double b = r.busbw().value();
                    low = Math.max(low, ranksAt((b - r.busbw().rounding()) / (a + r.algbw().rounding())));
                    high = Math.min(high, ranksAt((b + r.busbw().rounding()) / Math.max(0, a - r.algbw().rounding())));
                    ratio = b / a;
                }
            }
            if (lines.complete()) {
                int n = lines.ranks().size();
                if (!Double.isNaN(ratio) && (n < low - 1e-9 || n > high + 1e-9)) {
                    throw out.bad("be self-consistent (busbw/algbw = 2(n-1)/n for the " + n + " ranks its rank lines "
                            + "list; the rows allow " + range(low, high) + ")");
                }
                return new RankCount(n, "the rank lines (" + n + " listed, on " + lines.hosts().size() + " host"
                        + (lines.hosts().size() == 1 ? "" : "s") + ")");
            }
            if (!Double.isNaN(ratio)) {
                int n = (int) Math.max(Math.max(2, lines.atLeast()), Math.ceil(low - 1e-9));
                if (n > high + 1e-9) {
                    throw out.bad("be self-consistent (busbw/algbw = 2(n-1)/n with n at least " + lines.atLeast()
                            + ", the ranks listed; the rows allow " + range(low, high) + ")");
                }
                String listed = lines.ranks().isEmpty() ? "" : ", at least " + lines.atLeast() + " by the rank lines";
                return new RankCount(n, String.format(Locale.ROOT, "busbw/algbw = %.4f = 2(n-1)/n (rows allow %s%s)",
                        ratio, range(low, high), listed));
            }
            if (!lines.ranks().isEmpty()) {
                return new RankCount(lines.atLeast(), "the rank lines (highest listed rank + 1)");
            }
            return setupRanks == null ? new RankCount(null, null)
                    : new RankCount(setupRanks, "nThread x nGpus of the setup line (one process)");
        }

        /** n with 2(n−1)/n = {@code ratio}; infinite at and above 2. */
        private static double ranksAt(double ratio) {
            return ratio >= 2 ? Double.POSITIVE_INFINITY : 2 / (2 - ratio);
        }

        private static String range(double low, double high) {
            long from = (long) Math.ceil(low - 1e-9);
            if (Double.isInfinite(high)) {
                return "n >= " + from;
            }
            long to = (long) Math.floor(high + 1e-9);
            return from == to ? "n = " + from : from > to ? "no whole n" : "n = " + from + ".." + to;
        }
    }

    /** Where each field is, from the header's names (current and older nccl-tests layouts). */
    private record Columns(int count, int size, int type, int redop, int[] time, int[] algbw, int[] busbw,
                           int[] wrong) {

        static Columns of(ToolOutput out, int line, String[] names) {
            int size = index(names, 0, "size", "bytes");
            int type = index(names, 0, "type");
            int redop = index(names, 0, "redop", "op");
            int time0 = index(names, 0, "time");
            int time1 = index(names, time0 + 1, "time");
            int[] time = {time0, time1};
            int[] algbw = {index(names, time0, "algbw"), index(names, time1, "algbw")};
            int[] busbw = {index(names, time0, "busbw"), index(names, time1, "busbw")};
            int[] wrong = {index(names, time0, "#wrong", "error", "res"), index(names, time1, "#wrong", "error", "res")};
            if (size < 0 || type < 0 || redop < 0 || time0 < 0 || time1 < 0 || algbw[0] < 0 || algbw[1] < 0
                    || busbw[0] < 0 || busbw[1] < 0 || wrong[0] < 0 || wrong[1] < 0) {
                throw out.bad(line, "have the columns size, count, type, redop, time, algbw, busbw, #wrong for "
                        + "out-of-place and in-place", String.join(" ", names));
            }
            return new Columns(names.length, size, type, redop, time, algbw, busbw, wrong);
        }

        private static int index(String[] names, int from, String... candidates) {
            if (from < 0) {
                return -1;
            }
            for (int i = from; i < names.length; i++) {
                for (String candidate : candidates) {
                    if (names[i].toLowerCase(Locale.ROOT).equals(candidate)) {
                        return i;
                    }
                }
            }
            return -1;
        }
    }
}
