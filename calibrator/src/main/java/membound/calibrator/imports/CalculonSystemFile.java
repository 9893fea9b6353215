package membound.calibrator.imports;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;

import membound.calibrator.ceiling.ComputeCeilingRule;
import membound.calibrator.ceiling.MemoryCeilingRule;
import membound.profile.BandwidthEntry;
import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.LevelCeiling;
import membound.profile.Link;
import membound.profile.Provenance;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Implementation;
import membound.vocabulary.LinkKind;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;

/**
 * Calculon's system file, read as Calculon reads it (calculon-ai/calculon @ caa4b11f): {@code System(cfg)}
 * ({@code calculon/system.py:36-48}) takes {@code matrix}, {@code vector}, {@code mem1}, {@code mem2},
 * {@code processing_mode} and {@code networks} by name; {@code Processor} ({@code processor.py:21-35}) reads each
 * datatype's {@code tflops} (x 10¹²) and {@code gflops_efficiency} table; {@code Memory} ({@code memory.py:21-29})
 * {@code GiB} (x 1024³), {@code GBps} (x 10⁹) and {@code MB_efficiency}; {@code Network} ({@code network.py:39-59})
 * exactly its seven keys, bandwidth in GB/s, latency in seconds.
 *
 * <p>A file Calculon would stop on is refused with its rule: an efficiency outside (0, 1], thresholds that do not
 * fall strictly to 0 (Calculon asserts the fall, and an operation below the last threshold fails its coverage
 * assert, {@code processor.py:44}, {@code memory.py:42}), a network's keys or ops other than its own, a processor
 * usage outside [0, 1), a processing mode other than roofline or no_overlap; and a zero or negative rate, capacity
 * or bandwidth, which Calculon would divide by.
 *
 * <p>What each key becomes: {@code matrix.<dt>.tflops} the nominal dense peak of its precision (the datasheet basis);
 * that peak times the efficiency of the table's first row (Calculon's rate for the largest operations) a GEMM entry
 * of the device, imported (the measured basis); {@code vector.float32} likewise the FP32 vector (FMA) rate;
 * {@code mem1} the device's capacity, nominal bandwidth and, times the first row's efficiency, its DRAM read ceiling;
 * {@code mem2}, where it has memory, a host device and the link offloading goes over; each network tier of more than
 * one device a link (tier 0 the peer link, the others the network), at bandwidth x efficiency.
 */
final class CalculonSystemFile {

    static final Set<String> TOP = new LinkedHashSet<>(List.of("matrix", "vector", "mem1", "mem2", "processing_mode",
            "networks"));
    /** What a membound export adds to the file, which Calculon does not read. */
    static final String MEMBOUND = "membound";
    /** System.TypeSizes (system.py:25-30), with the precision each is in membound. */
    static final Map<String, Precision> DATATYPES = new LinkedHashMap<>();

    static {
        DATATYPES.put("float8", Precision.FP8);
        DATATYPES.put("float16", Precision.FP16);
        DATATYPES.put("bfloat16", Precision.BF16);
        DATATYPES.put("float32", Precision.FP32);
    }

    static final Set<String> NETWORK_KEYS = new LinkedHashSet<>(List.of("bandwidth", "efficiency", "size", "latency",
            "ops", "must_be_filled", "processor_usage"));
    static final Set<String> NETWORK_OPS = new LinkedHashSet<>(List.of("p2p", "reduce_scatter", "all_gather",
            "all_reduce"));

    private CalculonSystemFile() {
    }

    /** One row of an efficiency table: operations of at least {@code threshold} (GFLOP or MB) run at {@code efficiency}. */
    record Row(BigDecimal threshold, BigDecimal efficiency) {
    }

    static HardwareFileImport.Result read(JsonNode root, HardwareFileImport.Builder machine) {
        Set<String> known = new LinkedHashSet<>(TOP);
        known.add(MEMBOUND);
        HardwareFileImport.onlyKeys(root, "", known, "System reads these by name (calculon/system.py:36-48; "
                + MEMBOUND + " is a membound export's provenance, which it ignores)", machine);
        for (String key : TOP) {
            if (!root.has(key)) {
                throw new BadInputException(key + " must be given (Calculon's System reads cfg['" + key + "'], "
                        + "calculon/system.py:36-48): file=" + machine.file());
            }
        }
        String id = machine.deviceId();
        JsonNode mem1 = memory(root, "mem1", machine);
        BigDecimal mem1GiB = HardwareFileImport.positive(mem1.get("GiB"), "mem1.GiB", "GiB", machine);
        long capacity = LlmAnalysisGpuFile.capacityBytes(mem1GiB, machine);
        String fileName = java.nio.file.Path.of(machine.file()).getFileName().toString();
        String name = (fileName.endsWith(".json") ? fileName.substring(0, fileName.length() - 5) : fileName)
                + " (Calculon system file)";
        Device device = machine.mainDevice(name, new Device.Memory(capacity, null, key(machine, "mem1.GiB", mem1GiB,
                "GiB")));
        machine.read.add("mem1.GiB = " + HardwareFileImport.plain(mem1GiB) + " GiB (x 1024^3, memory.py:22) -> " + id
                + " memory capacity " + capacity + " B");

        // Compute: matrix, then vector.
        List<ComputeEntry> compute = new ArrayList<>();
        JsonNode matrix = datatypes(root, "matrix", machine);
        for (Iterator<String> names = matrix.fieldNames(); names.hasNext(); ) {
            String dt = names.next();
            Precision precision = DATATYPES.get(dt);
            String path = "matrix." + dt;
            JsonNode node = processor(matrix, dt, path, machine);
            BigDecimal tflops = HardwareFileImport.positive(node.get("tflops"), path + ".tflops", "TFLOP/s", machine);
            List<Row> table = table(node.get("gflops_efficiency"), path + ".gflops_efficiency", "GFLOP", machine);
            machine.nominalCompute(id, precision, tflops.doubleValue() * 1e12, key(machine, path + ".tflops", tflops,
                    "TFLOP/s"));
            double rate = tflops.doubleValue() * 1e12 * table.get(0).efficiency().doubleValue();
            compute.add(HardwareFileImport.Builder.compute("calculon-" + path.replace('.', '-'), ComputeEntry.Kind.GEMM,
                    precision, rate, tableProvenance(machine, path + ".tflops", tflops, "TFLOP/s",
                            path + ".gflops_efficiency", table)));
            machine.read.add(path + ".tflops = " + HardwareFileImport.plain(tflops) + " TFLOP/s (x 10^12, processor.py:"
                    + "25) -> " + id + " nominal " + precision.label() + " dense peak "
                    + HardwareFileImport.si(tflops.doubleValue() * 1e12, "FLOP/s"));
            machine.read.add(path + ".gflops_efficiency " + text(table) + " (GFLOP x 10^9, processor.py:29-35) -> " + id
                    + " " + precision.label() + " GEMM " + HardwareFileImport.si(rate, "FLOP/s") + " (imported: tflops x "
                    + HardwareFileImport.plain(table.get(0).efficiency()) + ", the first row, Calculon's rate for "
                    + "operations of " + HardwareFileImport.plain(table.get(0).threshold()) + " GFLOP and more)");
        }
        JsonNode vector = datatypes(root, "vector", machine);
        for (Iterator<String> names = vector.fieldNames(); names.hasNext(); ) {
            String dt = names.next();
            String path = "vector." + dt;
            JsonNode node = processor(vector, dt, path, machine);
            BigDecimal tflops = HardwareFileImport.positive(node.get("tflops"), path + ".tflops", "TFLOP/s", machine);
            List<Row> table = table(node.get("gflops_efficiency"), path + ".gflops_efficiency", "GFLOP", machine);
            if (!dt.equals("float32")) {
                machine.skipped.add(path + " (" + HardwareFileImport.plain(tflops) + " TFLOP/s, " + text(table)
                        + "): membound's model times elementwise work at the FP32 vector rate alone; no " + dt
                        + " vector rate imported");
                continue;
            }
            double rate = tflops.doubleValue() * 1e12 * table.get(0).efficiency().doubleValue();
            compute.add(HardwareFileImport.Builder.compute("calculon-vector-float32", ComputeEntry.Kind.FMA_PEAK,
                    Precision.FP32, rate, tableProvenance(machine, path + ".tflops", tflops, "TFLOP/s",
                            path + ".gflops_efficiency", table)));
            machine.read.add(path + ".tflops = " + HardwareFileImport.plain(tflops) + " TFLOP/s and "
                    + path + ".gflops_efficiency " + text(table) + " -> " + id + " fp32 vector (FMA) rate "
                    + HardwareFileImport.si(rate, "FLOP/s") + " (imported: tflops x the first row's "
                    + HardwareFileImport.plain(table.get(0).efficiency()) + ")");
        }
        if (!vector.has("float32")) {
            machine.skipped.add("vector.float32: absent; the model times elementwise work at the FP32 rate, here the "
                    + "nearest compute ceiling's");
        }
        device = device.withCompute(compute).withComputeCeilings(ComputeCeilingRule.ceilings(compute));

        // Main memory.
        BigDecimal mem1GBps = HardwareFileImport.positive(mem1.get("GBps"), "mem1.GBps", "GB/s", machine);
        List<Row> mem1Table = table(mem1.get("MB_efficiency"), "mem1.MB_efficiency", "MB", machine);
        machine.nominalMemory(id, mem1GBps.doubleValue() * 1e9, key(machine, "mem1.GBps", mem1GBps, "GB/s"));
        double mem1Rate = mem1GBps.doubleValue() * 1e9 * mem1Table.get(0).efficiency().doubleValue();
        Row first = mem1Table.get(0);
        Long workingSet = first.threshold().signum() > 0
                ? first.threshold().multiply(BigDecimal.valueOf(1_000_000)).setScale(0, java.math.RoundingMode.HALF_EVEN)
                .longValue() : null;
        BandwidthEntry entry = new BandwidthEntry(id + "-calculon-mem1", "mem1", AccessPattern.READ, false, "bytes",
                Implementation.IMPORTED, null, null, workingSet != null && workingSet > 0 ? workingSet : null,
                MemoryLevel.DRAM, HardwareFileImport.Builder.single(mem1Rate),
                null, tableProvenance(machine, "mem1.GBps", mem1GBps, "GB/s", "mem1.MB_efficiency", mem1Table));
        device = device.withBandwidth(List.of(entry))
                .withLevels(MemoryCeilingRule.complete(List.of(LevelCeiling.of(AccessPattern.READ, entry))));
        machine.replace(device);
        machine.read.add("mem1.GBps = " + HardwareFileImport.plain(mem1GBps) + " GB/s (x 10^9, memory.py:23) -> " + id
                + " nominal memory bandwidth " + HardwareFileImport.si(mem1GBps.doubleValue() * 1e9, "B/s"));
        machine.read.add("mem1.MB_efficiency " + text(mem1Table) + " (MB x 10^6, memory.py:25-28) -> " + id
                + " DRAM read ceiling " + HardwareFileImport.si(mem1Rate, "B/s") + " (imported: GBps x the first row's "
                + HardwareFileImport.plain(first.efficiency()) + ", Calculon's rate for " + HardwareFileImport.plain(
                first.threshold()) + " MB and more; the other patterns take it as the calibrator completes them)");

        // Offload memory.
        JsonNode mem2 = memory(root, "mem2", machine);
        BigDecimal mem2GiB = HardwareFileImport.nonNegative(mem2.get("GiB"), "mem2.GiB", "GiB", machine);
        BigDecimal mem2GBps = HardwareFileImport.positive(mem2.get("GBps"), "mem2.GBps", "GB/s", machine);
        List<Row> mem2Table = table(mem2.get("MB_efficiency"), "mem2.MB_efficiency", "MB", machine);
        if (mem2GiB.signum() == 0) {
            machine.skipped.add("mem2 (0 GiB, " + HardwareFileImport.plain(mem2GBps) + " GB/s, " + text(mem2Table)
                    + "): no memory to offload to (Calculon adds no capacity): no host device imported");
        } else {
            String hostId = id.equals("cpu") ? "host" : "cpu";
            long hostCapacity = LlmAnalysisGpuFile.capacityBytes(mem2GiB, machine);
            machine.device(hostId, DeviceKind.CPU, "Calculon mem2 (the memory " + id + " offloads to)",
                    new Device.Memory(hostCapacity, null, key(machine, "mem2.GiB", mem2GiB, "GiB")));
            machine.nominalMemory(hostId, mem2GBps.doubleValue() * 1e9, key(machine, "mem2.GBps", mem2GBps, "GB/s"));
            double offload = mem2GBps.doubleValue() * 1e9 * mem2Table.get(0).efficiency().doubleValue();
            machine.link(new Link("mem2", id, hostId, LinkKind.PCIE, HardwareFileImport.Builder.single(offload), null,
                    List.of(), tableProvenance(machine, "mem2.GBps", mem2GBps, "GB/s", "mem2.MB_efficiency",
                    mem2Table)));
            machine.read.add("mem2.GiB = " + HardwareFileImport.plain(mem2GiB) + " GiB -> " + hostId + " memory "
                    + "capacity " + hostCapacity + " B");
            machine.read.add("mem2.GBps = " + HardwareFileImport.plain(mem2GBps) + " GB/s and mem2.MB_efficiency "
                    + text(mem2Table) + " -> " + hostId + " nominal memory bandwidth " + HardwareFileImport.si(
                    mem2GBps.doubleValue() * 1e9, "B/s") + ", and link mem2 (" + id + " to " + hostId + ") "
                    + HardwareFileImport.si(offload, "B/s") + " (GBps x the first row's " + HardwareFileImport.plain(
                    mem2Table.get(0).efficiency()) + ")");
            machine.inferred.add("link mem2 kind pcie: Calculon offloads to mem2 (system.py compute_offload_time), "
                    + "which membound's model does over the host link; the file does not say what carries it");
        }

        // processing_mode: Calculon's own setting.
        JsonNode mode = root.get("processing_mode");
        if (!mode.isTextual() || !(mode.textValue().equals("roofline") || mode.textValue().equals("no_overlap"))) {
            throw new BadInputException("processing_mode must be roofline or no_overlap (calculon/system.py:45-46 "
                    + "asserts it): processing_mode=" + HardwareFileImport.shown(mode) + ", file=" + machine.file());
        }
        machine.skipped.add("processing_mode = " + mode.textValue() + ": Calculon's way of adding compute and memory "
                + "time; membound's roofline takes the slower of the two for every operation");

        networks(root.get("networks"), id, machine);
        if (root.has(MEMBOUND)) {
            machine.skipped.add(MEMBOUND + ": the provenance a membound export wrote into the file (Calculon ignores it); "
                    + "the figures are read from Calculon's own keys");
        }
        return machine.build(name.replace(" (Calculon system file)", ""), name);
    }

    private static JsonNode memory(JsonNode root, String key, HardwareFileImport.Builder machine) {
        JsonNode node = HardwareFileImport.object(root, key, key, machine);
        HardwareFileImport.onlyKeys(node, key, new LinkedHashSet<>(List.of("GiB", "GBps", "MB_efficiency")),
                "Memory reads GiB, GBps and MB_efficiency (calculon/memory.py:21-29)", machine);
        for (String k : List.of("GiB", "GBps", "MB_efficiency")) {
            if (!node.has(k)) {
                throw new BadInputException(key + "." + k + " must be given (calculon/memory.py:21-29 reads it): file="
                        + machine.file());
            }
        }
        return node;
    }

    /** {@code matrix} or {@code vector}: at least one datatype, each one Calculon knows. */
    private static JsonNode datatypes(JsonNode root, String key, HardwareFileImport.Builder machine) {
        JsonNode node = HardwareFileImport.object(root, key, key, machine);
        HardwareFileImport.onlyKeys(node, key, DATATYPES.keySet(), "Calculon's datatypes are System.TypeSizes' "
                + "(calculon/system.py:25-30)", machine);
        if (node.isEmpty()) {
            throw new BadInputException(key + " must give at least one datatype (" + String.join(", ", DATATYPES.keySet())
                    + "): " + key + "={}, file=" + machine.file());
        }
        return node;
    }

    private static JsonNode processor(JsonNode parent, String dt, String path, HardwareFileImport.Builder machine) {
        JsonNode node = HardwareFileImport.object(parent, dt, path, machine);
        HardwareFileImport.onlyKeys(node, path, new LinkedHashSet<>(List.of("tflops", "gflops_efficiency")),
                "Processor reads tflops and gflops_efficiency (calculon/processor.py:23-35)", machine);
        for (String k : List.of("tflops", "gflops_efficiency")) {
            if (!node.has(k)) {
                throw new BadInputException(path + "." + k + " must be given (calculon/processor.py:23-35 reads it): "
                        + "file=" + machine.file());
            }
        }
        return node;
    }

    /**
     * An efficiency table as Calculon asserts it: rows of [threshold, efficiency], efficiency in (0, 1], thresholds
     * strictly decreasing down to 0 (the last row covers every smaller operation, else Calculon's coverage assert
     * fails on one).
     */
    static List<Row> table(JsonNode node, String path, String unit, HardwareFileImport.Builder machine) {
        if (node == null || !node.isArray() || node.isEmpty()) {
            throw new BadInputException(path + " must be a list of [" + unit + ", efficiency] rows, at least one ("
                    + machine.what() + "): " + path + "=" + HardwareFileImport.shown(node) + ", file=" + machine.file());
        }
        List<Row> rows = new ArrayList<>();
        for (int i = 0; i < node.size(); i++) {
            JsonNode row = node.get(i);
            String at = path + "[" + i + "]";
            if (!row.isArray() || row.size() != 2) {
                throw new BadInputException(at + " must be a [" + unit + ", efficiency] pair (" + machine.what()
                        + "): " + at + "=" + HardwareFileImport.shown(row) + ", file=" + machine.file());
            }
            BigDecimal threshold = HardwareFileImport.nonNegative(row.get(0), at + "[0]", unit, machine);
            BigDecimal efficiency = HardwareFileImport.number(row.get(1), at + "[1]", "", machine);
            if (efficiency.signum() <= 0 || efficiency.compareTo(BigDecimal.ONE) > 0) {
                throw new BadInputException(at + "[1] must be an efficiency in (0, 1] (Calculon asserts 0 < eff <= 1.0, "
                        + (unit.equals("MB") ? "calculon/memory.py:28" : "calculon/processor.py:31") + "): " + at
                        + "[1]=" + HardwareFileImport.plain(efficiency) + ", file=" + machine.file());
            }
            if (!rows.isEmpty() && threshold.compareTo(rows.get(rows.size() - 1).threshold()) >= 0) {
                throw new BadInputException(at + "[0] must be below the row before it (" + path + "'s thresholds fall "
                        + "strictly down to 0; Calculon asserts it, calculon/processor.py:32-33): " + at + "[0]="
                        + HardwareFileImport.plain(threshold) + ", " + path + "[" + (i - 1) + "][0]="
                        + HardwareFileImport.plain(rows.get(rows.size() - 1).threshold()) + ", file=" + machine.file());
            }
            rows.add(new Row(threshold, efficiency));
        }
        BigDecimal last = rows.get(rows.size() - 1).threshold();
        if (last.signum() != 0) {
            throw new BadInputException(path + " must end at a threshold of 0 (an operation smaller than the last "
                    + "threshold fails Calculon's coverage assert, " + (unit.equals("MB") ? "calculon/memory.py:42"
                    : "calculon/processor.py:44") + "): " + path + "[" + (rows.size() - 1) + "][0]="
                    + HardwareFileImport.plain(last) + ", file=" + machine.file());
        }
        return rows;
    }

    private static void networks(JsonNode node, String id, HardwareFileImport.Builder machine) {
        if (node == null || !node.isArray()) {
            throw new BadInputException("networks must be a list of network tiers (calculon/system.py:48): networks="
                    + HardwareFileImport.shown(node) + ", file=" + machine.file());
        }
        for (int i = 0; i < node.size(); i++) {
            String path = "networks[" + i + "]";
            JsonNode net = node.get(i);
            if (!net.isObject()) {
                throw new BadInputException(path + " must be a JSON object (a network tier): " + path + "="
                        + HardwareFileImport.shown(net) + ", file=" + machine.file());
            }
            HardwareFileImport.onlyKeys(net, path, NETWORK_KEYS, "Network asserts its keys are exactly these "
                    + "(calculon/network.py:44)", machine);
            for (String k : NETWORK_KEYS) {
                if (!net.has(k)) {
                    throw new BadInputException(path + "." + k + " must be given (Network asserts its keys are exactly "
                            + String.join(", ", NETWORK_KEYS) + ", calculon/network.py:44): file=" + machine.file());
                }
            }
            BigDecimal bandwidth = HardwareFileImport.positive(net.get("bandwidth"), path + ".bandwidth", "GB/s",
                    machine);
            BigDecimal efficiency = HardwareFileImport.number(net.get("efficiency"), path + ".efficiency", "", machine);
            if (efficiency.signum() <= 0 || efficiency.compareTo(BigDecimal.ONE) > 0) {
                throw new BadInputException(path + ".efficiency must be in (0, 1] (calculon/network.py:47-48 asserts "
                        + "it): " + path + ".efficiency=" + HardwareFileImport.plain(efficiency) + ", file="
                        + machine.file());
            }
            JsonNode sizeNode = net.get("size");
            if (!sizeNode.isIntegralNumber() || sizeNode.asLong() < 0) {
                throw new BadInputException(path + ".size must be a whole number of devices, 0 or more "
                        + "(calculon/network.py:49-50): " + path + ".size=" + HardwareFileImport.shown(sizeNode)
                        + ", file=" + machine.file());
            }
            long size = sizeNode.asLong();
            BigDecimal latency = HardwareFileImport.nonNegative(net.get("latency"), path + ".latency", "s", machine);
            String ops = ops(net.get("ops"), path + ".ops", machine);
            if (!net.get("must_be_filled").isBoolean()) {
                throw new BadInputException(path + ".must_be_filled must be true or false (calculon/network.py:57): "
                        + path + ".must_be_filled=" + HardwareFileImport.shown(net.get("must_be_filled")) + ", file="
                        + machine.file());
            }
            BigDecimal usage = HardwareFileImport.number(net.get("processor_usage"), path + ".processor_usage", "",
                    machine);
            if (usage.signum() < 0 || usage.compareTo(BigDecimal.ONE) >= 0) {
                throw new BadInputException(path + ".processor_usage must be in [0, 1) (calculon/network.py:58-59 "
                        + "asserts it): " + path + ".processor_usage=" + HardwareFileImport.plain(usage) + ", file="
                        + machine.file());
            }
            if (size == 1) {
                machine.skipped.add(path + " (size 1, " + HardwareFileImport.plain(bandwidth) + " GB/s): a network of "
                        + "one device carries nothing between devices: no link imported");
                continue;
            }
            double bytesPerSecond = bandwidth.doubleValue() * 1e9 * efficiency.doubleValue();
            Double latencyNanos = latency.signum() > 0 ? latency.doubleValue() * 1e9 : null;
            String linkId = "tier" + i;
            LinkKind kind = i == 0 ? LinkKind.NVLINK : LinkKind.NETWORK;
            Map<String, String> settings = new LinkedHashMap<>();
            settings.put("keys", path + ".bandwidth," + path + ".efficiency," + path + ".latency");
            settings.put("size", Long.toString(size));
            settings.put("efficiency", HardwareFileImport.plain(efficiency));
            settings.put("ops", ops);
            settings.put("must_be_filled", net.get("must_be_filled").asText());
            settings.put("processor_usage", HardwareFileImport.plain(usage));
            Provenance provenance = machine.provenance("keys " + path + ".bandwidth = " + HardwareFileImport.plain(
                    bandwidth) + " GB/s x " + path + ".efficiency = " + HardwareFileImport.plain(efficiency) + ", "
                    + path + ".latency = " + HardwareFileImport.plain(latency) + " s", settings);
            machine.link(new Link(linkId, id, "peer", kind, HardwareFileImport.Builder.single(bytesPerSecond),
                    latencyNanos, List.of(), provenance));
            machine.read.add(path + ".bandwidth = " + HardwareFileImport.plain(bandwidth) + " GB/s x efficiency "
                    + HardwareFileImport.plain(efficiency) + " (network.py:45-48, 99) -> link " + linkId + " bandwidth "
                    + HardwareFileImport.si(bytesPerSecond, "B/s") + ", latency " + (latencyNanos == null ? "none (0 s)"
                    : HardwareFileImport.si(latencyNanos, "ns")) + "; size " + size + ", ops and the rest kept in its "
                    + "provenance");
            machine.inferred.add("link " + linkId + " kind " + kind + ": " + (i == 0 ? "Calculon's first tier is the "
                    + "fastest, inside a node (its own systems: NVLink), the peer link of membound's model"
                    : "a tier above the first spans nodes, the network of membound's model")
                    + "; the file does not say what carries it");
        }
    }

    /** The ops of a network as Calculon parses them (network.py:30-38, 53-56); their text, for the provenance. */
    private static String ops(JsonNode node, String path, HardwareFileImport.Builder machine) {
        if (node == null || !node.isObject()) {
            throw new BadInputException(path + " must be a JSON object of p2p, reduce_scatter, all_gather and "
                    + "all_reduce (calculon/network.py:53-56): " + path + "=" + HardwareFileImport.shown(node)
                    + ", file=" + machine.file());
        }
        HardwareFileImport.onlyKeys(node, path, NETWORK_OPS, "Network asserts its ops are exactly these "
                + "(calculon/network.py:31, 56)", machine);
        for (String op : NETWORK_OPS) {
            JsonNode pair = node.get(op);
            String at = path + "." + op;
            if (pair == null || !pair.isArray() || pair.size() != 2) {
                throw new BadInputException(at + " must be a [scalar, offset] pair (calculon/network.py:53-56): " + at
                        + "=" + HardwareFileImport.shown(pair) + ", file=" + machine.file());
            }
            BigDecimal scalar = HardwareFileImport.number(pair.get(0), at + "[0]", "", machine);
            if (scalar.signum() <= 0) {
                throw new BadInputException(at + "[0] must be a scalar above 0 (calculon/network.py:32 asserts it): "
                        + at + "[0]=" + HardwareFileImport.plain(scalar) + ", file=" + machine.file());
            }
            boolean collective = !op.equals("p2p");
            if (collective && (pair.get(1).isNull() || !pair.get(1).isNumber())) {
                throw new BadInputException(at + "[1] must be a number: a collective needs its offset "
                        + "(calculon/network.py:34): " + at + "[1]=" + HardwareFileImport.shown(pair.get(1)) + ", file="
                        + machine.file());
            }
            if (!collective && !pair.get(1).isNull()) {
                throw new BadInputException(at + "[1] must be null: p2p takes no offset (calculon/network.py:37): "
                        + at + "[1]=" + HardwareFileImport.shown(pair.get(1)) + ", file=" + machine.file());
            }
        }
        return node.toString();
    }

    private static Provenance key(HardwareFileImport.Builder machine, String key, BigDecimal value, String unit) {
        return LlmAnalysisGpuFile.figure(machine, key, value, unit);
    }

    private static Provenance tableProvenance(HardwareFileImport.Builder machine, String key, BigDecimal value,
                                              String unit, String tableKey, List<Row> table) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("key", key);
        settings.put("value", HardwareFileImport.plain(value));
        settings.put("unit", unit);
        settings.put("table", tableKey);
        settings.put("rows", text(table));
        return machine.provenance("keys " + key + " = " + HardwareFileImport.plain(value) + " " + unit + " x "
                + tableKey + "[0][1] = " + HardwareFileImport.plain(table.get(0).efficiency()), settings);
    }

    static String text(List<Row> table) {
        StringBuilder s = new StringBuilder("[");
        for (Row row : table) {
            if (s.length() > 1) {
                s.append(", ");
            }
            s.append('[').append(HardwareFileImport.plain(row.threshold())).append(", ")
                    .append(HardwareFileImport.plain(row.efficiency())).append(']');
        }
        return s.append(']').toString();
    }
}
