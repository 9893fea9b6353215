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
 * BabelStream's text table and its {@code --csv} output, every released layout (GPU-STREAM 0.9 to BabelStream
 * 5.0, whose print statements in {@code main.cpp} are the specification): rates in MB/s (10^6 bytes) or, with
 * {@code --mibibytes}, MiB/s (2^20 bytes); GB/s and GiB/s are read too. The releases print the array size
 * rounded ({@code Array size: 268.4 MB}); only later builds print {@code Number of elements: N}, and the CSV
 * carries {@code n_elements}. GPU-STREAM 0.9 and 1.x computed that size with 1024 × 1024 and still printed
 * {@code MB} (their {@code ocl-stream.cpp}), so there an array size in MB is read as 2^20 bytes; rates were
 * 10^6 bytes in every release. BabelStream excludes the first of {@code num_times} runs, so a figure is over
 * {@code num_times - 1} runs: best is the printed rate, worst the bytes over the maximum time. Bytes per kernel
 * are BabelStream's: copy and mul 2 arrays, add and triad 3, dot 2, nstream 4. Mul is STREAM's scale and is
 * stored as {@code scale}. The table ends at the first line that is not a kernel row (a blank line, the
 * GEOMEAN line of 1.0, a batch system's accounting line).
 */
final class BabelStreamImporter {

    static final String TOOL = "BabelStream";

    private static final Pattern VERSION = Pattern.compile("^Version: (\\S+)");
    private static final Pattern IMPLEMENTATION = Pattern.compile("^Implementation: (.+?)\\s*$");
    private static final Pattern ELEMENTS = Pattern.compile("^Number of elements: (\\d+)");
    private static final Pattern ARRAY_SIZE = Pattern.compile("^Array size: ([0-9.]+) (KB|MB|GB|KiB|MiB|GiB)\\b");
    private static final Pattern PRECISION = Pattern.compile("^Precision: (\\w+)");
    private static final Pattern RUNNING = Pattern.compile("^Running (.*?)(\\d+) times");
    private static final Pattern TEXT_HEADER = Pattern.compile(
            "^Function\\s+(MBytes/sec|MB/s|MiBytes/sec|MiB/s|GBytes/sec|GB/s|GiBytes/sec|GiB/s)\\s+Min \\(sec\\)\\s+Max\\s+Average\\s*$");
    private static final Pattern CSV_HEADER = Pattern.compile(
            "^function,num_times,n_elements,sizeof,max_(mbytes|mb|mibytes|mib|gbytes|gb|gibytes|gib)_per_sec,"
                    + "min_runtime,max_runtime,avg_runtime,?\\s*$", Pattern.CASE_INSENSITIVE);

    private record Kernel(String name, int arrays) {
    }

    private static final Map<String, Kernel> KERNELS = Map.of(
            "Copy", new Kernel("copy", 2), "Mul", new Kernel("scale", 2), "Add", new Kernel("add", 3),
            "Triad", new Kernel("triad", 3), "Dot", new Kernel("dot", 2), "Nstream", new Kernel("nstream", 4));

    /** How the run was set up: bytes per array (exact or as rounded in print), element size, runs, unit. */
    private record Run(PrintedNumber arrayBytes, int elementBytes, Long numTimes, double bytesPerUnit,
                       String toolVersion, Map<String, String> settings) {
    }

    private BabelStreamImporter() {
    }

    static ImportedFigures parse(ToolOutput out) {
        int csv = out.find(CSV_HEADER, 0);
        int text = out.find(TEXT_HEADER, 0);
        if (csv < 0 && text < 0) {
            throw out.bad("contain BabelStream's result table (text: \"Function MBytes/sec Min (sec) Max Average\"; "
                    + "--csv: \"function,num_times,n_elements,sizeof,max_mbytes_per_sec,...\")");
        }
        return csv >= 0 ? csv(out, csv) : text(out, text);
    }

    private static double unitBytes(String unit) {
        String u = unit.toLowerCase(java.util.Locale.ROOT);
        if (u.startsWith("ki")) {
            return 1 << 10;
        }
        if (u.startsWith("mi")) {
            return 1 << 20;
        }
        if (u.startsWith("gi")) {
            return 1 << 30;
        }
        return u.startsWith("g") ? 1e9 : u.startsWith("k") ? 1e3 : 1e6;
    }

    /** GPU-STREAM before 2.0 printed sizes of 2^20 bytes as MB. */
    private static boolean binaryBeforeVersion2(String toolVersion) {
        return toolVersion != null && (toolVersion.startsWith("0.") || toolVersion.startsWith("1."));
    }

    private static ImportedFigures text(ToolOutput out, int header) {
        Matcher version = out.match(VERSION);
        Matcher implementation = out.match(IMPLEMENTATION);
        String precision = out.require(PRECISION, "contain BabelStream's \"Precision: double|float\"").group(1);
        int elementBytes = switch (precision) {
            case "double" -> 8;
            case "float" -> 4;
            default -> throw out.bad(out.find(PRECISION, 0), "have precision double or float", precision);
        };
        String toolVersion = version == null ? null : version.group(1);
        Matcher running = out.match(RUNNING);
        Long numTimes;
        if (running == null && "0.0".equals(toolVersion)) {
            // GPU-STREAM 0.0, the first release, printed no run count (the line came with 0.9): its default was
            // 10 runs unless --numtimes said otherwise, so the count is not known from the output.
            numTimes = null;
        } else {
            running = out.require(RUNNING, "contain BabelStream's \"Running kernels N times\"");
            if (running.group(1).strip().equals("triad")) {
                throw out.bad(out.find(RUNNING, 0), "come from a run of all kernels (--triad-only prints one total "
                        + "bandwidth, not a table per kernel)", running.group(0));
            }
            numTimes = out.positiveLong(out.find(RUNNING, 0), "number of runs", running.group(2));
        }
        Matcher elementsMatch = out.match(ELEMENTS);
        Long elements = elementsMatch == null ? null
                : out.positiveLong(out.find(ELEMENTS, 0), "number of elements", elementsMatch.group(1));
        Map<String, String> settings = new LinkedHashMap<>();
        PrintedNumber arrayBytes = elements != null ? PrintedNumber.exact((double) elements * elementBytes)
                : printedArrayBytes(out, toolVersion, settings);
        Matcher unit = out.matchOn(header, TEXT_HEADER);
        settings.putAll(settings(elements, elementBytes, numTimes,
                implementation == null ? null : implementation.group(1), unit.group(1)));
        Run run = new Run(arrayBytes, elementBytes, numTimes, unitBytes(unit.group(1)), toolVersion, settings);
        List<ImportedBandwidth> figures = new ArrayList<>();
        for (int i = header + 1; i < out.lines.size(); i++) {
            String line = out.lines.get(i).strip();
            String[] f = line.split("\\s+");
            if (!KERNELS.containsKey(f[0])) {
                break;
            }
            if (f.length != 5) {
                throw out.bad(i, "have rows \"Kernel rate min max average\" (Copy, Mul, Add, Triad, Dot, Nstream)", line);
            }
            figures.add(figure(out, i, f[0], f[1], f[2], f[3], f[4], run));
        }
        if (figures.isEmpty()) {
            throw out.bad("have at least one kernel row in the result table");
        }
        return ImportedFigures.bandwidth(TOOL, run.toolVersion(), settings, figures);
    }

    /** Bytes per array as the releases print them, {@code Array size: 268.4 MB}, with the rounding of that print. */
    private static PrintedNumber printedArrayBytes(ToolOutput out, String toolVersion, Map<String, String> settings) {
        int line = out.requireLine(ARRAY_SIZE, "contain BabelStream's \"Array size: X MB\" or \"Number of elements: N\"");
        Matcher size = out.matchOn(line, ARRAY_SIZE);
        PrintedNumber printed = out.printed(line, "array size", size.group(1));
        double unit = unitBytes(binaryBeforeVersion2(toolVersion) ? size.group(2).replace("B", "iB") : size.group(2));
        settings.put("arraySizeAsPrinted", size.group(1) + " " + size.group(2));
        return new PrintedNumber(printed.value() * unit, printed.rounding() * unit);
    }

    private static ImportedFigures csv(ToolOutput out, int header) {
        Matcher unit = out.matchOn(header, CSV_HEADER);
        List<ImportedBandwidth> figures = new ArrayList<>();
        Map<String, String> settings = null;
        for (int i = header + 1; i < out.lines.size(); i++) {
            String line = out.lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",", -1);
            boolean trailingComma = f.length == 9 && f[8].isEmpty();
            if (!(f.length == 8 || trailingComma) || !KERNELS.containsKey(f[0])) {
                throw out.bad(i, "have CSV rows \"function,num_times,n_elements,sizeof,rate,min,max,avg\" "
                        + "(Copy, Mul, Add, Triad, Dot, Nstream)", line);
            }
            long numTimes = out.positiveLong(i, "num_times", f[1]);
            long elements = out.positiveLong(i, "n_elements", f[2]);
            int elementBytes = (int) out.positiveLong(i, "sizeof", f[3]);
            Map<String, String> rowSettings = settings(elements, elementBytes, numTimes, null, unit.group(1));
            if (settings == null) {
                settings = rowSettings;
            }
            Run run = new Run(PrintedNumber.exact((double) elements * elementBytes), elementBytes, numTimes,
                    unitBytes(unit.group(1)), null, rowSettings);
            figures.add(figure(out, i, f[0], f[4], f[5], f[6], f[7], run));
        }
        if (figures.isEmpty()) {
            throw out.bad("have at least one kernel row after the CSV header");
        }
        return ImportedFigures.bandwidth(TOOL, null, settings, figures);
    }

    private static ImportedBandwidth figure(ToolOutput out, int line, String label, String rateText, String minText,
                                            String maxText, String avgText, Run run) {
        if (run.numTimes() != null && run.numTimes() < 2) {
            throw out.bad(line, "have num_times of at least 2 (BabelStream excludes the first run)",
                    Long.toString(run.numTimes()));
        }
        Kernel kernel = KERNELS.get(label);
        PrintedNumber rate = out.printed(line, "rate", rateText);
        PrintedNumber minSeconds = out.printed(line, "minimum time", minText);
        double maxSeconds = out.positive(line, "maximum time", maxText);
        double avgSeconds = out.positive(line, "average time", avgText);
        if (!(minSeconds.value() <= avgSeconds && avgSeconds <= maxSeconds)) {
            throw out.bad(line, "have min time <= average time <= max time", out.lines.get(line));
        }
        double bytes = kernel.arrays() * run.arrayBytes().value();
        // BabelStream prints bytes / min time in its unit: a mismatch means a wrong unit or a misread row.
        out.agrees(line, label + " rate", rate, bytes / minSeconds.value() / run.bytesPerUnit(),
                run.arrayBytes().relativeRounding() + minSeconds.relativeRounding());
        double best = rate.value() * run.bytesPerUnit();
        Map<String, String> figureSettings = new LinkedHashMap<>(run.settings());
        figureSettings.put("minTimeSeconds", minText);
        figureSettings.put("maxTimeSeconds", maxText);
        figureSettings.put("avgTimeSeconds", avgText);
        return new ImportedBandwidth(kernel.name(), ImportedBandwidth.elementType(run.elementBytes()), null,
                Math.round(bytes), Distribution.bestAndWorst(best, Math.min(best, bytes / maxSeconds), samples(run, minSeconds.value(), maxSeconds)),
                Provenance.imported(TOOL, run.toolVersion(), label, out.file, figureSettings));
    }

    /**
     * Runs behind a row's min and max: BabelStream's count less the first run it excludes; where GPU-STREAM 0.0 printed
     * no count, 2: a minimum, a maximum and an average were taken over several runs (its default was 10), at least two.
     */
    private static long samples(Run run, double minSeconds, double maxSeconds) {
        return run.numTimes() != null ? run.numTimes() - 1 : 2;
    }

    private static Map<String, String> settings(Long elements, int elementBytes, Long numTimes, String implementation,
                                                String unit) {
        Map<String, String> settings = new LinkedHashMap<>();
        if (elements != null) {
            settings.put("arrayElements", Long.toString(elements));
        }
        settings.put("bytesPerElement", Integer.toString(elementBytes));
        settings.put("numTimes", numTimes != null ? Long.toString(numTimes) : "not printed (GPU-STREAM 0.0 prints no "
                + "run count; its default was 10 unless --numtimes was given): samples are a lower bound");
        settings.put("rateUnit", unit);
        if (implementation != null) {
            settings.put("implementation", implementation);
        }
        return settings;
    }
}
