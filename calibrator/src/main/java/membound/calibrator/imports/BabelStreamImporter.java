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
 * BabelStream's default text table and its {@code --csv} output, with rates in MB/s (10^6 bytes) or,
 * with {@code --mibibytes}, MiB/s (2^20 bytes); GB/s and GiB/s are read too. BabelStream excludes the
 * first of {@code num_times} runs, so a figure is over {@code num_times - 1} runs: best is the printed
 * rate, worst the bytes over the maximum time. Bytes per kernel are BabelStream's: copy and mul 2
 * arrays, add and triad 3, dot 2, nstream 4. Mul is STREAM's scale and is stored as {@code scale}.
 */
final class BabelStreamImporter {

    static final String TOOL = "BabelStream";

    private static final Pattern VERSION = Pattern.compile("^Version: (\\S+)");
    private static final Pattern IMPLEMENTATION = Pattern.compile("^Implementation: (.+?)\\s*$");
    private static final Pattern ELEMENTS = Pattern.compile("^Number of elements: (\\d+)");
    private static final Pattern PRECISION = Pattern.compile("^Precision: (\\w+)");
    private static final Pattern RUNNING = Pattern.compile("^Running .*? (\\d+) times");
    private static final Pattern TEXT_HEADER = Pattern.compile(
            "^Function\\s+(MBytes/sec|MB/s|MiBytes/sec|MiB/s|GBytes/sec|GB/s|GiBytes/sec|GiB/s)\\s+Min \\(sec\\)\\s+Max\\s+Average\\s*$");
    private static final Pattern CSV_HEADER = Pattern.compile(
            "^function,num_times,n_elements,sizeof,max_(MBytes|MB|MiBytes|MiB|GBytes|GB|GiBytes|GiB)_per_sec,min_runtime,max_runtime,avg_runtime\\s*$");

    private record Kernel(String name, int arrays) {
    }

    private static final Map<String, Kernel> KERNELS = Map.of(
            "Copy", new Kernel("copy", 2), "Mul", new Kernel("scale", 2), "Add", new Kernel("add", 3),
            "Triad", new Kernel("triad", 3), "Dot", new Kernel("dot", 2), "Nstream", new Kernel("nstream", 4));

    private BabelStreamImporter() {
    }

    static ImportedFigures parse(ToolOutput out) {
        int csv = out.find(CSV_HEADER, 0);
        int text = out.find(TEXT_HEADER, 0);
        if (csv < 0 && text < 0) {
            throw out.bad("contain BabelStream's result table (text: \"Function MB/s Min (sec) Max Average\"; "
                    + "--csv: \"function,num_times,n_elements,sizeof,max_MB_per_sec,...\")");
        }
        return csv >= 0 ? csv(out, csv) : text(out, text);
    }

    private static double unitBytes(String unit) {
        if (unit.startsWith("MiB")) {
            return 1 << 20;
        }
        if (unit.startsWith("GiB")) {
            return 1 << 30;
        }
        return unit.startsWith("G") ? 1e9 : 1e6;
    }

    private static ImportedFigures text(ToolOutput out, int header) {
        Matcher version = out.match(VERSION);
        Matcher implementation = out.match(IMPLEMENTATION);
        long elements = out.positiveLong(0, "number of elements",
                out.require(ELEMENTS, "contain BabelStream's \"Number of elements: N\"").group(1));
        String precision = out.require(PRECISION, "contain BabelStream's \"Precision: double|float\"").group(1);
        int elementBytes = switch (precision) {
            case "double" -> 8;
            case "float" -> 4;
            default -> throw out.bad(out.find(PRECISION, 0), "have precision double or float", precision);
        };
        long numTimes = out.positiveLong(0, "number of runs",
                out.require(RUNNING, "contain BabelStream's \"Running ... kernels N times\"").group(1));
        Matcher unit = TEXT_HEADER.matcher(out.lines.get(header));
        unit.find();
        double bytesPerUnit = unitBytes(unit.group(1));
        Map<String, String> settings = settings(elements, elementBytes, numTimes,
                implementation == null ? null : implementation.group(1), unit.group(1));
        String toolVersion = version == null ? null : version.group(1);
        List<ImportedBandwidth> figures = new ArrayList<>();
        for (int i = header + 1; i < out.lines.size(); i++) {
            String line = out.lines.get(i).strip();
            if (line.isEmpty()) {
                break;
            }
            String[] f = line.split("\\s+");
            if (f.length != 5 || !KERNELS.containsKey(f[0])) {
                throw out.bad(i, "have rows \"Kernel rate min max average\" (Copy, Mul, Add, Triad, Dot, Nstream)", line);
            }
            figures.add(figure(out, i, f[0], f[1], f[2], f[3], f[4], elements, elementBytes, numTimes, bytesPerUnit,
                    toolVersion, settings));
        }
        if (figures.isEmpty()) {
            throw out.bad("have at least one kernel row in the result table");
        }
        return ImportedFigures.bandwidth(TOOL, toolVersion, settings, figures);
    }

    private static ImportedFigures csv(ToolOutput out, int header) {
        Matcher unit = CSV_HEADER.matcher(out.lines.get(header));
        unit.find();
        double bytesPerUnit = unitBytes(unit.group(1));
        List<ImportedBandwidth> figures = new ArrayList<>();
        Map<String, String> settings = null;
        for (int i = header + 1; i < out.lines.size(); i++) {
            String line = out.lines.get(i).strip();
            if (line.isEmpty()) {
                continue;
            }
            String[] f = line.split(",", -1);
            if (f.length != 8 || !KERNELS.containsKey(f[0])) {
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
            figures.add(figure(out, i, f[0], f[4], f[5], f[6], f[7], elements, elementBytes, numTimes, bytesPerUnit,
                    null, rowSettings));
        }
        if (figures.isEmpty()) {
            throw out.bad("have at least one kernel row after the CSV header");
        }
        return ImportedFigures.bandwidth(TOOL, null, settings, figures);
    }

    private static ImportedBandwidth figure(ToolOutput out, int line, String label, String rateText, String minText,
                                            String maxText, String avgText, long elements, int elementBytes,
                                            long numTimes, double bytesPerUnit, String toolVersion,
                                            Map<String, String> settings) {
        if (numTimes < 2) {
            throw out.bad(line, "have num_times of at least 2 (BabelStream excludes the first run)",
                    Long.toString(numTimes));
        }
        Kernel kernel = KERNELS.get(label);
        double rate = out.positive(line, "rate", rateText);
        double minSeconds = out.positive(line, "minimum time", minText);
        double maxSeconds = out.positive(line, "maximum time", maxText);
        double avgSeconds = out.positive(line, "average time", avgText);
        if (!(minSeconds <= avgSeconds && avgSeconds <= maxSeconds)) {
            throw out.bad(line, "have min time <= average time <= max time", out.lines.get(line));
        }
        long bytes = kernel.arrays() * elements * elementBytes;
        // BabelStream prints bytes / min time in its unit: a mismatch means a wrong unit or a misread row.
        out.agrees(line, label + " rate", rate, bytes / minSeconds / bytesPerUnit, 0.01, 0.01);
        double best = rate * bytesPerUnit;
        Map<String, String> figureSettings = new LinkedHashMap<>(settings);
        figureSettings.put("minTimeSeconds", minText);
        figureSettings.put("maxTimeSeconds", maxText);
        figureSettings.put("avgTimeSeconds", avgText);
        return new ImportedBandwidth(kernel.name(), ImportedBandwidth.elementType(elementBytes), null, bytes,
                Distribution.bestAndWorst(best, Math.min(best, bytes / maxSeconds), numTimes - 1),
                Provenance.imported(TOOL, toolVersion, label, out.file, figureSettings));
    }

    private static Map<String, String> settings(long elements, int elementBytes, long numTimes, String implementation,
                                                String unit) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("arrayElements", Long.toString(elements));
        settings.put("bytesPerElement", Integer.toString(elementBytes));
        settings.put("numTimes", Long.toString(numTimes));
        settings.put("rateUnit", unit);
        if (implementation != null) {
            settings.put("implementation", implementation);
        }
        return settings;
    }
}
