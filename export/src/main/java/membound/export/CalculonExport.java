package membound.export;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import membound.model.machine.ComputeCeiling;
import membound.model.machine.Device;
import membound.model.machine.Link;
import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.vocabulary.Precision;

/**
 * Calculon's system file ({@code calculon/system.py:36-48}): {@code matrix} and {@code vector} per datatype with
 * {@code tflops} and a {@code gflops_efficiency} table ({@code calculon/processor.py:21-35}: thresholds in GFLOP of
 * one operation, strictly decreasing, efficiency in (0, 1]; an operation takes the first row whose threshold it
 * reaches, so the last must be 0), {@code mem1} and {@code mem2} with {@code GiB} (x 1024^3), {@code GBps} (x 10^9)
 * and an {@code MB_efficiency} table (MB = 10^6 bytes of one operation; {@code calculon/memory.py:21-29}),
 * {@code processing_mode}, and {@code networks} whose keys must be exactly Calculon's seven
 * ({@code calculon/network.py:39-58}: bandwidth GB/s, latency seconds). {@code System} reads only the keys it
 * names, so the provenance rides in the file under {@code membound}.
 *
 * <p>The tables are what a profile measured across sizes: the GEMM and product rates of a precision at each
 * operation's FLOPs, the best bandwidth at each working set; each over the table's {@code tflops} or
 * {@code GBps} (the datasheet peak where the profile has one above every measured rate, else the highest measured
 * rate), so that {@code tflops x efficiency} is the measured rate at that size.
 */
final class CalculonExport {

    /** Calculon's datatypes ({@code System.TypeSizes}) and the precision each is. */
    static final Map<String, Precision> DATATYPES = new LinkedHashMap<>();

    static {
        DATATYPES.put("float8", Precision.FP8);
        DATATYPES.put("float16", Precision.FP16);
        DATATYPES.put("bfloat16", Precision.BF16);
        DATATYPES.put("float32", Precision.FP32);
    }

    private CalculonExport() {
    }

    /** One row of an efficiency table: an operation's size in SI (FLOP or bytes) and the rate measured at it. */
    record Row(double size, double rate, String source, Origin origin) {
    }

    static Export build(ExportInput input, String fileName) {
        FigureLog log = new FigureLog(input, ExportTool.CALCULON);
        ObjectNode system = ToolJson.object();
        Device device = input.machine().device();
        ObjectNode matrix = system.putObject("matrix");
        List<String> written = new ArrayList<>();
        for (Map.Entry<String, Precision> dt : DATATYPES.entrySet()) {
            ComputeCeiling c = device.compute().get(dt.getValue());
            if (c == null) {
                continue;
            }
            written.add(dt.getKey());
            String key = "matrix." + dt.getKey();
            ObjectNode node = matrix.putObject(dt.getKey());
            FigureLog.Chosen rate = Rates.matrix(log, c);
            List<Row> rows = rate.origin() == Origin.MEASURED ? computeRows(input, dt.getValue()) : List.of();
            table(log, fileName, key, node, "tflops", 1e12, "TFLOP/s", "FLOP/s", "gflops_efficiency", 1e9, "GFLOP",
                    "FLOP", rate, c.peakDense(), rows, input.fromProfile() ? null : c.attainableGemm());
        }
        if (written.isEmpty()) {
            ComputeCeiling nearest = device.computeFor(Precision.FP32);
            written.add("float32");
            log.note("matrix.float32: " + device.name() + " has no ceiling in any of Calculon's datatypes: its "
                    + nearest.precision().label() + " one is written as float32");
            table(log, fileName, "matrix.float32", matrix.putObject("float32"), "tflops", 1e12, "TFLOP/s", "FLOP/s",
                    "gflops_efficiency", 1e9, "GFLOP", "FLOP", Rates.matrix(log, nearest), nearest.peakDense(),
                    List.of(), input.fromProfile() ? null : nearest.attainableGemm());
        }
        ObjectNode vector = system.putObject("vector");
        FigureLog.Chosen vectorRate = Rates.vector(log);
        for (String dt : written) {
            ObjectNode node = vector.putObject(dt);
            String key = "vector." + dt;
            node.put("tflops", log.write(fileName, key + ".tflops", vectorRate, 1e12, "TFLOP/s", "FLOP/s"));
            ArrayNode table = node.putArray("gflops_efficiency");
            ArrayNode row = table.addArray();
            row.add(0);
            row.add(log.write(fileName, key + ".gflops_efficiency[0][1]", new FigureLog.Chosen(1, vectorRate.origin(),
                    "one vector rate, not a curve: the rate at every size (" + vectorRate.source() + ")"), 1, "1",
                    "1"));
        }
        log.note("vector.*: one vector (FP32) rate is written for every datatype: membound measures or knows no "
                + "other; elementwise FP16/BF16 work on CUDA cores may run faster");

        ObjectNode mem1 = system.putObject("mem1");
        mem1.put("GiB", log.write(fileName, "mem1.GiB", new FigureLog.Chosen(device.capacityBytes(),
                device.capacitySource().startsWith("measured") ? Origin.MEASURED : Origin.DATASHEET,
                device.capacitySource()), 1L << 30, "GiB", "B"));
        FigureLog.Chosen memory = Rates.memory(log);
        List<Row> memRows = memory.origin() == Origin.MEASURED ? bandwidthRows(input) : List.of();
        table(log, fileName, "mem1", mem1, "GBps", 1e9, "GB/s", "B/s", "MB_efficiency", 1e6, "MB", "B", memory,
                device.mainMemory().ceiling(membound.vocabulary.AccessPattern.READ), memRows, null);

        ObjectNode mem2 = system.putObject("mem2");
        mem2(log, fileName, input, mem2, memory);

        system.put("processing_mode", "roofline");
        log.note("processing_mode = roofline: membound's ceilings are a roofline's (an operation takes the longer of "
                + "its compute and memory time); Calculon's own files use no_overlap");
        networks(log, fileName, input, system.putArray("networks"), memory);

        String command = command(fileName);
        system.set("membound", ToolJson.provenance(ExportTool.CALCULON, input, log.figures(), log.notes(), command));
        Map<String, byte[]> files = new LinkedHashMap<>();
        files.put(fileName, ToolJson.bytes(system));
        return new Export(ExportTool.CALCULON, files, log.figures(), log.notes(), command);
    }

    static String command(String fileName) {
        return "PYTHONPATH=. ./bin/calculon llm MODEL.json EXECUTION.json " + fileName + " -";
    }

    /**
     * Writes {@code node.<baseKey>} and its efficiency table.
     *
     * @param rate        the ceiling the model uses (the largest size's rate)
     * @param peak        the ceiling whose datasheet figure is the table's base where it is above every rate
     * @param rows        measured rates across sizes; empty for one row at every size
     * @param attainable  a catalog entry's attainable GEMM rate: its ratio to the peak is the one row; else null
     */
    private static void table(FigureLog log, String file, String key, ObjectNode node, String baseKey,
                              double baseSiPerUnit, String baseUnit, String siUnit, String tableKey,
                              double sizeSiPerUnit, String sizeUnit, String sizeSiUnit, FigureLog.Chosen rate,
                              membound.model.machine.Ceiling peak, List<Row> rows,
                              membound.model.machine.Ceiling attainable) {
        ArrayNode table;
        if (attainable != null && attainable.hasDatasheet() && rate.origin() != Origin.MEASURED) {
            // A catalog entry: the datasheet peak, and the documented attainable fraction at every size.
            node.put(baseKey, log.write(file, key + "." + baseKey, rate, baseSiPerUnit, baseUnit, siUnit));
            table = node.putArray(tableKey);
            ArrayNode row = table.addArray();
            row.add(0);
            row.add(log.write(file, key + "." + tableKey + "[0][1]", new FigureLog.Chosen(
                    attainable.datasheet() / rate.value(), Origin.DATASHEET, attainable.datasheetSource()), 1, "1",
                    "1"));
            return;
        }
        double highest = rate.value();
        for (Row r : rows) {
            highest = Math.max(highest, r.rate());
        }
        FigureLog.Chosen base = rate;
        if (rate.origin() == Origin.MEASURED && !log.input().measuredOnly() && peak.hasDatasheet()
                && peak.datasheet() >= highest) {
            base = new FigureLog.Chosen(peak.datasheet(), Origin.DATASHEET, peak.datasheetSource()
                    + " (the table's base: every measured rate is this times its efficiency)");
        } else if (highest > rate.value()) {
            Row top = rows.stream().max(Comparator.comparingDouble(Row::rate)).orElseThrow();
            base = new FigureLog.Chosen(highest, Origin.MEASURED, top.source() + " (the highest measured rate: the "
                    + "table's base)");
        }
        node.put(baseKey, log.write(file, key + "." + baseKey, base, baseSiPerUnit, baseUnit, siUnit));
        table = node.putArray(tableKey);
        if (rows.isEmpty()) {
            rows = List.of(new Row(0, rate.value(), rate.source(), rate.origin()));
        }
        // Largest operation first; sizes that round to the same written threshold keep the larger rate.
        TreeMap<BigDecimal, Row> bySize = new TreeMap<>(Comparator.reverseOrder());
        for (Row r : rows) {
            BigDecimal size = FigureLog.round(r.size() / sizeSiPerUnit);
            bySize.merge(size, r, (a, b) -> a.rate() >= b.rate() ? a : b);
        }
        int i = 0;
        Row last = null;
        for (Map.Entry<BigDecimal, Row> e : bySize.entrySet()) {
            addRow(log, file, key + "." + tableKey, table, i++, e.getValue(), e.getValue().size(), sizeSiPerUnit,
                    sizeUnit, sizeSiUnit, base.value());
            last = e.getValue();
        }
        if (last.size() > 0) {
            addRow(log, file, key + "." + tableKey, table, i, new Row(0, last.rate(), last.source()
                    + " (operations smaller than the smallest measured take its rate)", last.origin()), 0, sizeSiPerUnit, sizeUnit,
                    sizeSiUnit, base.value());
        }
    }

    private static void addRow(FigureLog log, String file, String key, ArrayNode table, int index, Row row,
                               double size, double sizeSiPerUnit, String sizeUnit, String sizeSiUnit, double base) {
        ArrayNode node = table.addArray();
        if (size == 0) {
            node.add(0);
        } else {
            node.add(log.write(file, key + "[" + index + "][0]", new FigureLog.Chosen(size, row.origin(),
                    row.source()), sizeSiPerUnit, sizeUnit, sizeSiUnit));
        }
        node.add(log.write(file, key + "[" + index + "][1]", new FigureLog.Chosen(Math.min(1, row.rate() / base),
                row.origin(), row.source()), 1, "1", "1"));
    }

    /** A precision's GEMM and product rates in the profile, at each operation's FLOPs. */
    static List<Row> computeRows(ExportInput input, Precision precision) {
        List<Row> rows = new ArrayList<>();
        if (input.device() == null) {
            return rows;
        }
        for (ComputeEntry e : input.device().compute()) {
            if (e.precision() != precision) {
                continue;
            }
            double flops;
            if (e.kind() == ComputeEntry.Kind.GEMM && e.matrixSize() != null) {
                flops = 2.0 * e.matrixSize() * e.matrixSize() * e.matrixSize();
            } else if (e.kind() == ComputeEntry.Kind.PRODUCT && e.shape() != null) {
                flops = e.shape().flops();
            } else {
                continue;
            }
            rows.add(new Row(flops, e.flopsPerSecond().typical(), "profile " + input.origin() + ", compute entry "
                    + e.id() + " (" + e.kind().label() + ", " + e.provenance().kind().label() + ")", Origin.MEASURED));
        }
        return rows;
    }

    /**
     * The profile's bandwidth across working sets: the sweep of the kernel measured at the most working sets (a
     * working-set sweep runs one kernel, Triad, from L1 to DRAM; the other kernels run at DRAM only, each at its own
     * size), on all cores, at each working set its best typical rate over thread counts.
     */
    static List<Row> bandwidthRows(ExportInput input) {
        if (input.device() == null) {
            return List.of();
        }
        Map<String, Map<Long, Row>> byKernel = new TreeMap<>();
        for (BandwidthEntry b : input.device().bandwidth()) {
            if (b.workingSetBytes() == null || (b.placement() != null && !b.placement().equals("all"))) {
                continue;
            }
            Row r = new Row(b.workingSetBytes(), b.streamBytesPerSecond().typical(), "profile " + input.origin()
                    + ", bandwidth entry " + b.id() + " (" + b.kernel() + ", " + b.level().label() + ")",
                    Origin.MEASURED);
            byKernel.computeIfAbsent(b.kernel(), k -> new TreeMap<>()).merge(b.workingSetBytes(), r,
                    (a, c) -> a.rate() >= c.rate() ? a : c);
        }
        Map<Long, Row> sweep = Map.of();
        for (Map<Long, Row> rows : byKernel.values()) {
            if (rows.size() > sweep.size()) {
                sweep = rows;
            }
        }
        return new ArrayList<>(sweep.values());
    }

    /**
     * Calculon's second memory, where offloaded tensors go: the host's memory over the host link. On a unified
     * memory, or a device without a host, it adds no capacity (0 GiB, neutral) and moves at the device's own rate.
     */
    private static void mem2(FigureLog log, String file, ExportInput input, ObjectNode mem2, FigureLog.Chosen memory) {
        var machine = input.machine();
        ExportLink host = machine.host() != null && !machine.device().unifiedMemory()
                ? ExportLink.of(log, Link.Kind.HOST) : null;
        if (host != null) {
            mem2.put("GiB", log.write(file, "mem2.GiB", new FigureLog.Chosen(machine.host().capacityBytes(),
                    machine.host().capacitySource().startsWith("measured") ? Origin.MEASURED : Origin.DATASHEET,
                    machine.host().capacitySource()), 1L << 30, "GiB", "B"));
            mem2.put("GBps", log.write(file, "mem2.GBps", host.bandwidth(), 1e9, "GB/s", "B/s"));
        } else {
            String why = machine.device().unifiedMemory() ? "unified memory: offloading to the host's memory adds no "
                    + "capacity" : "no host memory behind " + machine.device().name();
            mem2.put("GiB", log.neutral(file, "mem2.GiB", 0, 1L << 30, "GiB", "B", why));
            mem2.put("GBps", log.neutral(file, "mem2.GBps", memory.value(), 1e9, "GB/s", "B/s", why
                    + "; moved at the device's own main-memory bandwidth"));
        }
        ArrayNode table = mem2.putArray("MB_efficiency");
        ArrayNode row = table.addArray();
        row.add(0);
        row.add(log.neutral(file, "mem2.MB_efficiency[0][1]", 1, 1, "1", "1", "no size-dependent figure for "
                + "offloading"));
    }

    /**
     * Calculon's network tiers: tier 0 is inside the machine (the peer link, else the device alone: size 1, a
     * neutral tier that carries nothing with tp=pp=dp=1), tier 1 the network where the machine has one.
     */
    private static void networks(FigureLog log, String file, ExportInput input, ArrayNode networks,
                                 FigureLog.Chosen memory) {
        ExportLink peer = ExportLink.of(log, Link.Kind.PEER);
        ExportLink network = ExportLink.of(log, Link.Kind.NETWORK);
        int tier = 0;
        if (peer != null) {
            network(log, file, networks.addObject(), tier++, peer);
        } else {
            ObjectNode n = networks.addObject();
            String key = "networks[0]";
            String why = "no link to another device inside the machine: tier 0 is the device alone (size 1)";
            n.put("bandwidth", log.neutral(file, key + ".bandwidth", memory.value(), 1e9, "GB/s", "B/s", why
                    + ", at its own main-memory bandwidth"));
            n.put("efficiency", 1);
            n.put("size", 1);
            n.put("latency", 0);
            ops(n);
            n.put("must_be_filled", false);
            n.put("processor_usage", 0);
            tier++;
        }
        if (network != null) {
            network(log, file, networks.addObject(), tier, network);
        }
    }

    private static void network(FigureLog log, String file, ObjectNode n, int tier, ExportLink link) {
        String key = "networks[" + tier + "]";
        n.put("bandwidth", log.write(file, key + ".bandwidth", link.bandwidth(), 1e9, "GB/s", "B/s"));
        n.put("efficiency", 1);
        n.put("size", link.ranks());
        log.figures().add(new ExportedFigure(file, key + ".size", link.ranks(), "devices", link.ranks(), "1",
                link.bandwidth().origin(), link.ranksSource()));
        if (link.latencyKnown()) {
            n.put("latency", log.write(file, key + ".latency", new FigureLog.Chosen(link.latencySeconds(),
                    link.bandwidth().origin(), link.latencySource()), 1, "s", "s"));
        } else {
            n.put("latency", log.neutral(file, key + ".latency", 0, 1, "s", "s", "link " + link.id()
                    + " has no latency figure (" + link.latencySource() + ")"));
        }
        ops(n);
        n.put("must_be_filled", false);
        n.put("processor_usage", 0);
    }

    /** Calculon's collective model per op (scalar, offset), as its own system files give it (systems/*.json). */
    private static void ops(ObjectNode n) {
        ObjectNode ops = n.putObject("ops");
        ops.putArray("p2p").add(1.0).addNull();
        ops.putArray("reduce_scatter").add(1.0).add(0);
        ops.putArray("all_gather").add(1.0).add(0);
        ops.putArray("all_reduce").add(1.0).add(1);
    }

    static String describe(double value) {
        return String.format(Locale.ROOT, "%.4g", value);
    }
}
