package membound.calibrator.imports;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.profile.Distribution;
import membound.profile.Provenance;

/**
 * The repository's own C reference, {@code scripts/reference/stream-omp.c} (the kernels of the Java suite in C with
 * OpenMP, which {@code scripts/compare-peers.sh} runs): one line of {@code key=value} pairs per run,
 * {@code tool=stream-omp kernel=triad elements=N threads=T passes=P libc=0 stream_bytes_per_pass=B best_seconds=...
 * median_seconds=... best_GBps=... median_GBps=...}. Each line is one figure on doubles: best and median over the
 * {@code passes - 1} passes after the first (which it drops, as STREAM does), in STREAM bytes. The program prints a
 * line only once its arrays passed its check against STREAM's closed form; a line whose bytes or rates disagree with
 * its own counts is refused, and so is a kernel run twice with the same threads (which one would be the figure?).
 */
final class StreamOmpImporter {

    static final String TOOL = "stream-omp";

    private static final Pattern LINE = Pattern.compile("^tool=stream-omp\\s");
    private static final Pattern PAIR = Pattern.compile("(\\w+)=(\\S+)");
    private static final List<String> KEYS = List.of("kernel", "elements", "threads", "passes", "libc",
            "stream_bytes_per_pass", "best_seconds", "median_seconds", "best_GBps", "median_GBps");
    /** Arrays each kernel reads and writes (STREAM's count, as stream-omp.c counts them) and the arrays it touches. */
    private static final Map<String, int[]> ARRAYS = Map.of("copy", new int[] {2, 2}, "scale", new int[] {2, 2},
            "add", new int[] {3, 3}, "triad", new int[] {3, 3}, "dot", new int[] {2, 2}, "nstream", new int[] {4, 3},
            "sum", new int[] {1, 1}, "fill", new int[] {1, 1});
    private static final int DOUBLE_BYTES = 8;

    private StreamOmpImporter() {
    }

    static ImportedFigures parse(ToolOutput out) {
        List<ImportedBandwidth> figures = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < out.lines.size(); i++) {
            String line = out.lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            if (!LINE.matcher(line).find()) {
                throw out.bad(i, "hold only stream-omp's result lines (\"tool=stream-omp kernel=... best_GBps=...\"; "
                        + "its errors go to stderr)", line);
            }
            Map<String, String> pairs = new LinkedHashMap<>();
            Matcher m = PAIR.matcher(line);
            while (m.find()) {
                if (pairs.put(m.group(1), m.group(2)) != null) {
                    throw out.bad(i, "give each key once (" + m.group(1) + " twice)", line);
                }
            }
            for (String key : KEYS) {
                if (!pairs.containsKey(key)) {
                    throw out.bad(i, "give " + String.join(", ", KEYS) + " (" + key + " is missing)", line);
                }
            }
            String kernel = pairs.get("kernel");
            int[] arrays = ARRAYS.get(kernel);
            if (arrays == null) {
                throw out.bad(i, "name one of stream-omp's kernels (" + String.join(", ", new java.util.TreeSet<>(
                        ARRAYS.keySet())) + ")", "kernel=" + kernel);
            }
            long elements = (long) out.positive(i, "elements", pairs.get("elements"));
            long threads = (long) out.positive(i, "threads", pairs.get("threads"));
            long passes = (long) out.positive(i, "passes", pairs.get("passes"));
            if (passes < 2) {
                throw out.bad(i, "have at least 2 passes (stream-omp drops the first)", "passes=" + passes);
            }
            String libc = pairs.get("libc");
            if (!libc.equals("0") && !libc.equals("1")) {
                throw out.bad(i, "have libc=0 or libc=1", "libc=" + libc);
            }
            PrintedNumber bytes = out.printed(i, "stream_bytes_per_pass", pairs.get("stream_bytes_per_pass"));
            out.agrees(i, "stream_bytes_per_pass", bytes, (double) arrays[0] * elements * DOUBLE_BYTES, 0);
            PrintedNumber bestSeconds = out.printed(i, "best_seconds", pairs.get("best_seconds"));
            PrintedNumber medianSeconds = out.printed(i, "median_seconds", pairs.get("median_seconds"));
            if (bestSeconds.value() > medianSeconds.value()) {
                throw out.bad(i, "have best_seconds <= median_seconds", line);
            }
            PrintedNumber bestGBps = out.printed(i, "best_GBps", pairs.get("best_GBps"));
            PrintedNumber medianGBps = out.printed(i, "median_GBps", pairs.get("median_GBps"));
            // stream-omp prints bytes / seconds / 1e9 with two decimals: a mismatch means the line was edited.
            out.agrees(i, "best_GBps", bestGBps, bytes.value() / bestSeconds.value() / 1e9, bestSeconds.relativeRounding());
            out.agrees(i, "median_GBps", medianGBps, bytes.value() / medianSeconds.value() / 1e9,
                    medianSeconds.relativeRounding());
            if (!seen.add(kernel + "/" + threads)) {
                throw out.bad(i, "have one line per kernel and thread count (compare-peers runs each several times: "
                        + "import one run's line)", line);
            }
            double best = bestGBps.value() * 1e9;
            double median = Math.min(best, medianGBps.value() * 1e9);
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("arrayElements", Long.toString(elements));
            settings.put("bytesPerElement", Integer.toString(DOUBLE_BYTES));
            settings.put("passes", Long.toString(passes));
            settings.put("threads", Long.toString(threads));
            settings.put("libc", libc);
            settings.put("bestSeconds", pairs.get("best_seconds"));
            settings.put("medianSeconds", pairs.get("median_seconds"));
            figures.add(new ImportedBandwidth(kernel, "double", (int) Math.min(Integer.MAX_VALUE, threads),
                    (long) arrays[1] * elements * DOUBLE_BYTES,
                    new Distribution(best, null, null, median, null, null, null, passes - 1),
                    Provenance.imported(TOOL, null, kernel, out.file, settings)));
        }
        if (figures.isEmpty()) {
            throw out.bad("have at least one result line (\"tool=stream-omp kernel=...\")");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("lines", Integer.toString(figures.size()));
        return ImportedFigures.bandwidth(TOOL, null, settings, figures);
    }
}
