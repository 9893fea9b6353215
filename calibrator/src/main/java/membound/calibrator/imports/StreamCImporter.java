package membound.calibrator.imports;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.profile.Distribution;
import membound.profile.Provenance;

/**
 * McCalpin's {@code stream.c} (5.9 and 5.10) and {@code stream_mpi.c}: the table of best rate (MB/s, 10^6
 * bytes) and average, minimum and maximum time per kernel. 5.9 prints {@code bytes per DOUBLE PRECISION word},
 * {@code Array size = N, Offset = 0}, {@code Each test is run N times} and {@code Rate (MB/s)}; stream_mpi.c
 * prints the {@code Total Aggregate Array size} and the number of MPI ranks, which count as threads here.
 * The first table is read: wrappers such as stream-scaling print more, one kernel per thread count, after it. Each kernel ran {@code NTIMES} times and the first is excluded, as stream.c
 * does, so a figure is over {@code NTIMES - 1} runs: best is the printed rate, worst is the bytes over
 * the maximum time. Bytes per kernel are stream.c's own: copy and scale 2 arrays, add and triad 3.
 * An output without "Solution Validates" (a failed or cut-off run) is refused.
 */
final class StreamCImporter {

    static final String TOOL = "STREAM";

    private static final Pattern VERSION = Pattern.compile("STREAM version \\$Revision: ([0-9.]+) \\$");
    private static final Pattern ELEMENT = Pattern.compile(
            "This system uses (\\d+) bytes per (?:array element|DOUBLE PRECISION word)");
    private static final Pattern ARRAY = Pattern.compile(
            "^(?:Total Aggregate )?Array size = (\\d+)(?: \\(elements\\))?(?:, Offset = (\\d+))?");
    private static final Pattern NTIMES = Pattern.compile("Each (?:kernel will be executed|test is run) (\\d+) times");
    private static final Pattern MPI_RANKS = Pattern.compile("^Data is distributed across (\\d+) MPI ranks");
    private static final Pattern THREADS = Pattern.compile("Number of Threads counted = (\\d+)");
    private static final Pattern THREADS_REQUESTED = Pattern.compile("Number of Threads requested = (\\d+)");
    private static final Pattern HEADER = Pattern.compile(
            "^Function\\s+(?:Best Rate MB/s|Rate \\(MB/s\\))\\s+Avg time\\s+Min time\\s+Max time");
    private static final Pattern ROW = Pattern.compile("^(\\w+):\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s+(\\S+)\\s*$");
    private static final Pattern VALIDATES = Pattern.compile("^Solution Validates");
    private static final Map<String, Integer> ARRAYS = Map.of("Copy", 2, "Scale", 2, "Add", 3, "Triad", 3);

    private StreamCImporter() {
    }

    /** Where McCalpin's stream.c is published: the hint of an output that is not its. */
    static final String SOURCE = "McCalpin's stream.c, https://www.cs.virginia.edu/stream/FTP/Code/stream.c";

    static ImportedFigures parse(ToolOutput out) {
        Matcher version = out.match(VERSION);
        String toolVersion = version == null ? null : version.group(1);
        int elementBytes = (int) out.positiveLong(0, "bytes per array element",
                out.require(ELEMENT, "contain stream.c's \"This system uses N bytes per array element\" (the output of "
                        + SOURCE + ")").group(1));
        Matcher array = out.require(ARRAY, "contain stream.c's \"Array size = N (elements)\"");
        long elements = out.positiveLong(0, "array size", array.group(1));
        long ntimes = out.positiveLong(0, "NTIMES", out.require(NTIMES,
                "contain stream.c's \"Each kernel will be executed N times\"").group(1));
        if (ntimes < 2) {
            throw out.bad("have NTIMES of at least 2 (stream.c excludes the first run)");
        }
        Matcher counted = out.match(THREADS);
        if (counted == null) {
            counted = out.match(THREADS_REQUESTED);
        }
        // A stream.c built without OpenMP prints no thread count and runs on one thread; stream_mpi.c runs one per rank.
        int threadsPerProcess = counted == null ? 1 : (int) out.positiveLong(0, "thread count", counted.group(1));
        Matcher mpi = out.match(MPI_RANKS);
        int threads = mpi == null ? threadsPerProcess
                : (int) Math.min(Integer.MAX_VALUE, threadsPerProcess * out.positiveLong(0, "MPI ranks", mpi.group(1)));

        int header = out.find(HEADER, 0);
        if (header < 0) {
            throw out.bad("contain stream.c's result table (Function  Best Rate MB/s  Avg time  Min time  Max time)");
        }
        if (out.find(VALIDATES, header) < 0) {
            throw out.bad("report \"Solution Validates\" (the run failed validation or the file is cut off)");
        }
        String elementType = ImportedBandwidth.elementType(elementBytes);
        List<ImportedBandwidth> figures = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (int i = header + 1; i < out.lines.size(); i++) {
            String line = out.lines.get(i);
            if (line.startsWith("---") || line.isBlank()) {
                break;
            }
            Matcher row = ROW.matcher(line);
            if (!row.matches() || !ARRAYS.containsKey(row.group(1))) {
                throw out.bad(i, "have rows \"Copy|Scale|Add|Triad: rate avg min max\" in the result table", line);
            }
            String label = row.group(1);
            if (!seen.add(label)) {
                throw out.bad(i, "have each of Copy, Scale, Add and Triad once in the result table", line);
            }
            PrintedNumber bestMegabytesPerSecond = out.printed(i, "best rate", row.group(2));
            double avgSeconds = out.positive(i, "average time", row.group(3));
            PrintedNumber minSeconds = out.printed(i, "minimum time", row.group(4));
            double maxSeconds = out.positive(i, "maximum time", row.group(5));
            if (!(minSeconds.value() <= avgSeconds && avgSeconds <= maxSeconds)) {
                throw out.bad(i, "have min time <= avg time <= max time", line);
            }
            long bytes = ARRAYS.get(label) * elements * elementBytes;
            // stream.c prints 1e-6 * bytes / mintime; a mismatch means the table was misread.
            out.agrees(i, label + " MB/s", bestMegabytesPerSecond, 1e-6 * bytes / minSeconds.value(),
                    minSeconds.relativeRounding());
            double best = bestMegabytesPerSecond.value() * 1e6;
            double worst = Math.min(best, bytes / maxSeconds);
            String kernel = label.toLowerCase(java.util.Locale.ROOT);
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("arrayElements", Long.toString(elements));
            settings.put("bytesPerElement", Integer.toString(elementBytes));
            settings.put("ntimes", Long.toString(ntimes));
            settings.put("threads", Integer.toString(threads));
            settings.put("avgTimeSeconds", row.group(3));
            settings.put("minTimeSeconds", row.group(4));
            settings.put("maxTimeSeconds", row.group(5));
            figures.add(new ImportedBandwidth(kernel, elementType, threads, bytes,
                    Distribution.bestAndWorst(best, worst, ntimes - 1),
                    Provenance.imported(TOOL, toolVersion, label, out.file, settings)));
        }
        if (figures.isEmpty()) {
            throw out.bad("have at least one kernel row in the result table");
        }
        if (!seen.containsAll(ARRAYS.keySet())) {
            // stream.c prints all four, always: a table without one was edited or cut, and is not its output.
            List<String> missing = new ArrayList<>(List.of("Copy", "Scale", "Add", "Triad"));
            missing.removeAll(seen);
            throw out.bad("have a row for each of Copy, Scale, Add and Triad in the result table (stream.c prints "
                    + "all four; missing: " + String.join(", ", missing) + ")");
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("arrayElements", Long.toString(elements));
        settings.put("bytesPerElement", Integer.toString(elementBytes));
        settings.put("ntimes", Long.toString(ntimes));
        settings.put("threads", Integer.toString(threads));
        return ImportedFigures.bandwidth(TOOL, toolVersion, settings, figures);
    }
}
