package membound.calibrator.imports;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.profile.Distribution;
import membound.profile.Link;
import membound.profile.Provenance;

/**
 * nccl-tests' {@code all_reduce_perf} table: per message size, time (µs), algorithm bandwidth
 * ({@code algbw} = size / time) and bus bandwidth ({@code busbw} = algbw × 2(n−1)/n for n ranks), GB/s
 * (10^9 bytes), out-of-place and in-place. Columns are found by the header, so the older layout
 * ({@code bytes N type op time algbw busbw error}) reads too.
 *
 * <p>Rows whose bandwidth prints as 0.00 (below the table's resolution) are skipped. A row with wrong
 * results ({@code #wrong} above 0) is an error, as is an output without the closing
 * "Avg bus bandwidth" line (a cut-off run). The link's bandwidth is the distribution of busbw over the
 * four largest message sizes, both placements: the plateau a large gradient all-reduce sees.
 */
final class NcclTestsImporter {

    static final String TOOL = "nccl-tests";

    private static final Pattern VERSION = Pattern.compile("^# nccl-tests version (\\S+)");
    private static final Pattern TEST = Pattern.compile("^# Collective test starting: (\\S+)");
    private static final Pattern NCCL = Pattern.compile("^#?\\s*NCCL version (\\S+)");
    private static final Pattern SETUP = Pattern.compile(
            "^#?\\s*nThread (\\d+) nGpus (\\d+) minBytes (\\d+) maxBytes (\\d+).*?warmup iters: (\\d+) iters: (\\d+)");
    private static final Pattern RANK = Pattern.compile(
            "^#\\s+Rank\\s+(\\d+)\\b.*?\\bon\\s+(\\S+)\\s+device\\s+(\\d+)\\s+\\[[^\\]]*\\]\\s+(.+?)\\s*$");
    private static final Pattern AVERAGE = Pattern.compile("^# Avg bus bandwidth\\s*:\\s*(\\S+)");
    private static final Pattern OUT_OF_BOUNDS = Pattern.compile("^# Out of bounds values\\s*:\\s*(\\d+)\\s+(\\S+)");
    private static final int PLATEAU_SIZES = 4;

    private NcclTestsImporter() {
    }

    static ImportedFigures parse(ToolOutput out) {
        Matcher test = out.match(TEST);
        if (test != null && !test.group(1).startsWith("all_reduce_perf")) {
            throw out.bad(out.find(TEST, 0), "come from all_reduce_perf", test.group(1));
        }
        Matcher versionMatch = out.match(VERSION);
        String version = versionMatch == null ? null : versionMatch.group(1);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("test", test == null ? "all_reduce_perf" : test.group(1));
        Matcher nccl = out.match(NCCL);
        if (nccl != null) {
            settings.put("ncclVersion", nccl.group(1));
        }
        Matcher setup = out.match(SETUP);
        Integer setupRanks = null;
        if (setup != null) {
            settings.put("nThread", setup.group(1));
            settings.put("nGpus", setup.group(2));
            settings.put("minBytes", setup.group(3));
            settings.put("maxBytes", setup.group(4));
            settings.put("warmupIters", setup.group(5));
            settings.put("iters", setup.group(6));
            int line = out.find(SETUP, 0);
            try {
                setupRanks = Math.multiplyExact(Integer.parseInt(setup.group(1)), Integer.parseInt(setup.group(2)));
            } catch (NumberFormatException | ArithmeticException e) {
                throw out.bad(line, "have nThread x nGpus that fit a count of ranks", setup.group(0).strip());
            }
        }
        Set<String> hosts = new LinkedHashSet<>();
        Set<Integer> ranks = new LinkedHashSet<>();
        String deviceName = null;
        for (int i = 0; i < out.lines.size(); i++) {
            Matcher rank = RANK.matcher(out.lines.get(i));
            if (rank.matches()) {
                try {
                    ranks.add(Integer.parseInt(rank.group(1)));
                } catch (NumberFormatException e) {
                    throw out.bad(i, "have a rank number that fits a count of ranks", rank.group(1));
                }
                hosts.add(rank.group(2));
                if (deviceName == null) {
                    deviceName = rank.group(4);
                }
            }
        }
        // With MPI each process prints its own setup line, so the rank lines are the better count.
        Integer rankCount = !ranks.isEmpty() ? Integer.valueOf(ranks.size()) : setupRanks;
        if (rankCount != null) {
            settings.put("ranks", Integer.toString(rankCount));
        }

        int header = -1;
        String[] columns = null;
        for (int i = 0; i < out.lines.size(); i++) {
            String line = out.lines.get(i);
            if (line.startsWith("#") && line.contains("algbw") && line.contains("busbw")) {
                header = i;
                columns = line.substring(1).trim().split("\\s+");
                break;
            }
        }
        if (header < 0) {
            throw out.bad("contain nccl-tests' result table (# size count type redop root time algbw busbw #wrong ...)");
        }
        Columns c = Columns.of(out, header, columns);
        // The units line says (us) in current versions; early ones printed ms and no units line.
        String units = header + 1 < out.lines.size() && out.lines.get(header + 1).startsWith("#")
                ? out.lines.get(header + 1) : "";
        Double secondsPerTimeUnit = units.contains("(us)") ? Double.valueOf(1e-6)
                : units.contains("(ms)") ? Double.valueOf(1e-3) : null;
        int average = out.find(AVERAGE, header);
        if (average < 0) {
            throw out.bad("end with nccl-tests' \"# Avg bus bandwidth\" line (the run failed or the file is cut off)");
        }
        Matcher bounds = out.match(OUT_OF_BOUNDS);
        if (bounds != null && !"OK".equals(bounds.group(2))) {
            throw out.bad(out.find(OUT_OF_BOUNDS, 0), "report no out-of-bounds values", bounds.group(0));
        }

        List<Link.Measurement> measurements = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        List<Long> zeroRows = new ArrayList<>();
        int rows = 0;
        for (int i = header + 1; i < average; i++) {
            String line = out.lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\\s+");
            if (f.length != columns.length) {
                throw out.bad(i, "have " + columns.length + " columns per row, as its header", line);
            }
            rows++;
            long size = out.positiveLong(i, "size", f[c.size]);
            String type = f[c.type];
            for (int placement = 0; placement < 2; placement++) {
                boolean inPlace = placement == 1;
                checkWrong(out, i, f[c.wrong[placement]], line);
                double time = out.positive(i, "time", f[c.time[placement]]);
                double algbw = out.number(i, "algbw", f[c.algbw[placement]]);
                double busbw = out.number(i, "busbw", f[c.busbw[placement]]);
                if (algbw < 0 || busbw < 0) {
                    throw out.bad(i, "have bandwidths >= 0", line);
                }
                if (algbw == 0 || busbw == 0) {
                    zeroRows.add(size);
                    continue;
                }
                if (secondsPerTimeUnit == null) {
                    // No units line: the unit is whichever of µs and ms makes algbw = size / time, checked below.
                    secondsPerTimeUnit = Math.abs(size / (time * 1e-3) / 1e9 - algbw)
                            < Math.abs(size / (time * 1e-6) / 1e9 - algbw) ? 1e-3 : 1e-6;
                    settings.put("timeUnit", secondsPerTimeUnit == 1e-3 ? "ms (no units line)" : "us (no units line)");
                }
                double seconds = time * secondsPerTimeUnit;
                // algbw is size / time and busbw is algbw × 2(n−1)/n; the printed figures have two decimals.
                double computed = size / seconds / 1e9;
                out.agrees(i, "algbw", algbw, computed, 0.02, 0.011);
                if (rankCount != null && rankCount > 1) {
                    out.agrees(i, "busbw", busbw, computed * 2.0 * (rankCount - 1) / rankCount, 0.02, 0.011);
                }
                Map<String, String> rowSettings = new LinkedHashMap<>(settings);
                rowSettings.put("redop", f[c.redop]);
                measurements.add(new Link.Measurement("all_reduce", rankCount, size, type, inPlace, seconds * 1e9,
                        algbw * 1e9, busbw * 1e9, Provenance.imported(TOOL, version, settings.get("test"), out.file,
                        rowSettings)));
            }
        }
        if (rows == 0) {
            throw out.bad("have at least one row in its result table");
        }
        if (!zeroRows.isEmpty()) {
            skipped.add(zeroRows.size() + " results that print 0.00 GB/s (sizes " + zeroRows.get(0) + " to "
                    + zeroRows.get(zeroRows.size() - 1) + " bytes), below the table's resolution");
        }
        if (measurements.isEmpty()) {
            throw out.bad("have at least one row with a bandwidth above 0.00 GB/s");
        }
        List<Long> sizes = measurements.stream().map(Link.Measurement::messageBytes).distinct()
                .sorted(Comparator.reverseOrder()).limit(PLATEAU_SIZES).toList();
        double[] plateau = measurements.stream().filter(m -> sizes.contains(m.messageBytes()))
                .mapToDouble(Link.Measurement::busBytesPerSecond).toArray();
        settings.put("linkBandwidth", "busbw over the " + sizes.size() + " largest sizes, both placements");
        return new ImportedFigures(TOOL, version, new java.util.TreeMap<>(settings), deviceName, List.of(),
                measurements, Distribution.ofSamples(plateau), null, List.copyOf(hosts), skipped);
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

    /** Where each field is, from the header's names (current and older nccl-tests layouts). */
    private record Columns(int size, int type, int redop, int[] time, int[] algbw, int[] busbw, int[] wrong) {

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
            return new Columns(size, type, redop, time, algbw, busbw, wrong);
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
