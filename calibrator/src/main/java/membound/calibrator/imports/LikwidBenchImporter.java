package membound.calibrator.imports;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.profile.Distribution;
import membound.profile.Provenance;

/**
 * {@code likwid-bench}'s summary of one test: its data volume (loads plus stores, no write-allocate:
 * STREAM's convention), time and MByte/s (10^6 bytes). One timed run of many iterations, so a figure
 * has one sample and no spread. Test names map to STREAM kernels by their first word: {@code copy},
 * {@code load} (read), {@code store} (write), {@code stream} (STREAM's triad a = b + s·c), {@code sum}
 * and {@code ddot} (read); likwid's own {@code triad} (a = b + c·d), {@code daxpy} and {@code update}
 * keep their names and are no ceiling. likwid-bench does not print its version; before 4.3 it printed
 * {@code Size:} where later releases print {@code Size (Byte):}.
 */
final class LikwidBenchImporter {

    static final String TOOL = "likwid-bench";

    private static final Pattern TEST = Pattern.compile("^Test: (\\S+)");
    private static final Pattern THREADS = Pattern.compile("^Using (\\d+) threads");
    private static final Pattern GROUPS = Pattern.compile("^Using (\\d+) work groups");
    private static final Pattern TIME = Pattern.compile("^Time:\\s+(\\S+) sec");
    /** {@code Size (Byte):} from 4.3 on, {@code Size:} before; bytes in both. */
    private static final Pattern SIZE = Pattern.compile("^Size(?: \\(Byte\\))?:\\s+(\\S+)");
    private static final Pattern VOLUME = Pattern.compile("^Data volume \\(Byte\\):\\s+(\\S+)");
    private static final Pattern RATE = Pattern.compile("^MByte/s:\\s+(\\S+)");
    private static final Pattern ITERATIONS = Pattern.compile("^Iterations:\\s+(\\S+)");

    private LikwidBenchImporter() {
    }

    static ImportedFigures parse(ToolOutput out) {
        String test = out.require(TEST, "contain likwid-bench's \"Test: NAME\"").group(1);
        if (test.startsWith("peakflops") || test.startsWith("divide")) {
            throw out.bad(out.find(TEST, 0), "be a bandwidth test (not a FLOP test)", test);
        }
        int threads = (int) out.positiveLong(0, "thread count",
                out.require(THREADS, "contain likwid-bench's \"Using N threads\"").group(1));
        int rateLine = out.requireLine(RATE,
                "contain likwid-bench's \"MByte/s:\" result (the run failed or the file is cut off)");
        PrintedNumber megabytesPerSecond = out.printed(rateLine, "MByte/s", out.matchOn(rateLine, RATE).group(1));
        int timeLine = out.requireLine(TIME, "contain likwid-bench's \"Time: S sec\"");
        String timeText = out.matchOn(timeLine, TIME).group(1);
        PrintedNumber seconds = out.printed(timeLine, "time", timeText);
        int volumeLine = out.requireLine(VOLUME, "contain likwid-bench's \"Data volume (Byte): N\"");
        String volumeText = out.matchOn(volumeLine, VOLUME).group(1);
        PrintedNumber volume = out.printed(volumeLine, "data volume", volumeText);
        int sizeLine = out.requireLine(SIZE, "contain likwid-bench's \"Size (Byte): N\"");
        long sizeBytes = out.positiveLong(sizeLine, "size", out.matchOn(sizeLine, SIZE).group(1));
        out.agrees(rateLine, "MByte/s", megabytesPerSecond, volume.value() / seconds.value() / 1e6,
                volume.relativeRounding() + seconds.relativeRounding());

        String kernel = kernel(test);
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("test", test);
        settings.put("threads", Integer.toString(threads));
        Matcher groups = out.match(GROUPS);
        if (groups != null) {
            settings.put("workGroups", groups.group(1));
        }
        settings.put("sizeBytes", Long.toString(sizeBytes));
        Matcher iterations = out.match(ITERATIONS);
        if (iterations != null) {
            settings.put("iterations", iterations.group(1));
        }
        settings.put("timeSeconds", timeText);
        settings.put("dataVolumeBytes", volumeText);
        ImportedBandwidth figure = new ImportedBandwidth(kernel, (test + "_").contains("_sp_") ? "float" : "double",
                threads, sizeBytes,
                Distribution.single(megabytesPerSecond.value() * 1e6),
                Provenance.imported(TOOL, null, test, out.file, settings));
        return ImportedFigures.bandwidth(TOOL, null, settings, List.of(figure));
    }

    static String kernel(String test) {
        String first = test.split("_")[0];
        return switch (first) {
            case "copy" -> "copy";
            case "load" -> "load";
            case "store" -> "store";
            case "stream" -> "triad";
            case "sum", "ddot" -> "dot";
            case "triad" -> "likwid-triad";
            default -> first.toLowerCase(java.util.Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        };
    }
}
