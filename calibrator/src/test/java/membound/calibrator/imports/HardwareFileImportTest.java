package membound.calibrator.imports;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import membound.profile.ComputeEntry;
import membound.profile.Device;
import membound.profile.FlopCeiling;
import membound.profile.LevelCeiling;
import membound.profile.Link;
import membound.profile.Nominal;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.ProvenanceKind;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.LinkKind;
import membound.vocabulary.MemoryLevel;
import membound.vocabulary.Precision;

/**
 * Another estimator's hardware file read as that tool reads it (issue 29, the reverse of {@code membound export}):
 * every key to the figure it is in the tool, in SI units in the profile, with the file and key as its provenance;
 * peaks on the datasheet basis, a Calculon table's rates on the measured basis; a file the tool would stop on
 * refused in one line naming the key, the rule and the value.
 */
class HardwareFileImportTest {

    /** A GPU file in llm-analysis's GPUConfig keys; the figures are made up for the test. */
    static final String GPU = """
            {
                "name": "test-gpu",
                "mem_per_GPU_in_GB": 48,
                "hbm_bandwidth_in_GB_per_sec": 1500,
                "intra_node_bandwidth_in_GB_per_sec": 200,
                "intra_node_min_message_latency": 5e-06,
                "peak_fp16_TFLOPS": 250,
                "peak_i8_TFLOPS": 500,
                "inter_node_bandwidth_in_GB_per_sec": 50
            }
            """;

    /** A system file in Calculon's keys (every table falling to 0, networks of seven keys); figures made up. */
    static final String SYSTEM = """
            {
              "matrix": {
                "float16": {"tflops": 400, "gflops_efficiency": [[100, 0.9], [10, 0.8], [0, 0.2]]},
                "float8": {"tflops": 800, "gflops_efficiency": [[0, 0.7]]}
              },
              "vector": {
                "float16": {"tflops": 100, "gflops_efficiency": [[0, 0.5]]},
                "float32": {"tflops": 50, "gflops_efficiency": [[10, 0.8], [0, 0.4]]}
              },
              "mem1": {"GiB": 64, "GBps": 3000, "MB_efficiency": [[100, 0.85], [1, 0.6], [0, 0.3]]},
              "mem2": {"GiB": 256, "GBps": 40, "MB_efficiency": [[100, 0.9], [0, 0.5]]},
              "processing_mode": "no_overlap",
              "networks": [
                {"bandwidth": 400, "efficiency": 0.75, "size": 8, "latency": 0.00001,
                 "ops": {"p2p": [1.0, null], "reduce_scatter": [1.5, -1], "all_gather": [1.5, -1],
                         "all_reduce": [2.0, -1]},
                 "must_be_filled": true, "processor_usage": 0.1},
                {"bandwidth": 50, "efficiency": 0.9, "size": 1024, "latency": 0.00002,
                 "ops": {"p2p": [1.0, null], "reduce_scatter": [1.0, -1], "all_gather": [1.0, -1],
                         "all_reduce": [2.0, -1]},
                 "must_be_filled": false, "processor_usage": 0.0}
              ]
            }
            """;

    static HardwareFileImport.Result read(ImportFormat format, String text) {
        return read(format, text, null);
    }

    static HardwareFileImport.Result read(ImportFormat format, String text, String deviceId) {
        return HardwareFileImport.read(format, text.getBytes(StandardCharsets.UTF_8),
                new HardwareFileImport.Target(deviceId, null),
                new HardwareFileImport.RunContext("in.json", "membound import --format " + format + " in.json",
                        "test", Instant.parse("2026-01-01T00:00:00Z")));
    }

    static BadInputException refused(ImportFormat format, String text) {
        return assertThrows(BadInputException.class, () -> read(format, text));
    }

    static double nominalCompute(Profile p, String device, Precision precision) {
        return p.nominal().computeOf(device, precision).orElseThrow().flopsPerSecond();
    }

    @Test
    void anLlmAnalysisGpuFileBecomesADatasheetLikeProfileInTheUnitsTheToolReads() {
        HardwareFileImport.Result r = read(ImportFormat.LLM_ANALYSIS, GPU);
        Profile p = r.profile();
        Device gpu = p.device("gpu").orElseThrow();
        assertEquals(DeviceKind.GPU, gpu.kind());
        assertEquals(48L << 30, gpu.memory().capacityBytes(), "mem_per_GPU_in_GB is GiB: llm-analysis x 1024^3");
        assertEquals(1500e9, p.nominal().memoryBandwidthOf("gpu").orElseThrow().bytesPerSecond());
        assertEquals(250e12, nominalCompute(p, "gpu", Precision.FP16));
        assertEquals(250e12, nominalCompute(p, "gpu", Precision.BF16), "16-bit math of every kind at peak_fp16");
        assertEquals(500e12, nominalCompute(p, "gpu", Precision.INT8));
        assertTrue(p.nominal().computeOf("gpu", Precision.INT4).isEmpty(), "not in the file: not made up");
        assertTrue(r.skipped().stream().anyMatch(s -> s.startsWith("peak_i4_TFLOPS: absent")), r.skipped().toString());
        assertTrue(gpu.levels().isEmpty() && gpu.compute().isEmpty(), "nothing on the measured basis");
        Link intra = p.link("intra-node").orElseThrow();
        assertEquals(LinkKind.NVLINK, intra.kind());
        assertEquals(200e9, intra.bandwidthBytesPerSecond().best());
        assertEquals(5000, intra.latencyNanos(), 1e-9, "seconds in the file");
        Link inter = p.link("inter-node").orElseThrow();
        assertEquals(LinkKind.NETWORK, inter.kind());
        assertEquals(50e9, inter.bandwidthBytesPerSecond().best());
        assertNull(p.host().cpu(), "the file names no host");
        assertEquals("test-gpu", p.host().hostname());
        assertTrue(p.quality().flags().stream().anyMatch(f -> f.code().equals(HardwareFileImport.FLAG)));
    }

    @Test
    void everyFigureNamesTheFileAndTheKeyItCameFrom() {
        Profile p = read(ImportFormat.LLM_ANALYSIS, GPU).profile();
        Nominal.MemoryBandwidth memory = p.nominal().memoryBandwidthOf("gpu").orElseThrow();
        assertEquals(ProvenanceKind.IMPORTED, memory.provenance().kind());
        assertEquals("in.json", memory.provenance().file());
        assertEquals("hbm_bandwidth_in_GB_per_sec", memory.provenance().settings().get("key"));
        assertEquals("1500", memory.provenance().settings().get("value"));
        assertEquals("GB/s", memory.provenance().settings().get("unit"));
        assertTrue(memory.provenance().source().contains("llm-analysis GPU file, key hbm_bandwidth_in_GB_per_sec"),
                memory.provenance().source());
        assertEquals("mem_per_GPU_in_GB", p.device("gpu").orElseThrow().memory().provenance().settings().get("key"));
    }

    @Test
    void theProfileIsWrittenAndReadBackAsAnyProfile() {
        Profile p = read(ImportFormat.CALCULON, SYSTEM).profile();
        assertEquals(p, ProfileJson.read(ProfileJson.toBytes(p), "round.json"));
        Profile q = read(ImportFormat.LLM_ANALYSIS, GPU).profile();
        assertEquals(q, ProfileJson.read(ProfileJson.toBytes(q), "round.json"));
    }

    @Test
    void aCalculonSystemFileGivesPeaksOnTheDatasheetBasisAndItsTablesRatesOnTheMeasuredBasis() {
        HardwareFileImport.Result r = read(ImportFormat.CALCULON, SYSTEM);
        Profile p = r.profile();
        Device gpu = p.device("gpu").orElseThrow();
        assertEquals(64L << 30, gpu.memory().capacityBytes());
        assertEquals(400e12, nominalCompute(p, "gpu", Precision.FP16));
        assertEquals(800e12, nominalCompute(p, "gpu", Precision.FP8));
        FlopCeiling fp16 = gpu.computeCeiling(Precision.FP16, ComputeEntry.Kind.GEMM).orElseThrow();
        assertEquals(400e12 * 0.9, fp16.flopsPerSecond(), 1, "tflops x the first row: the largest operations' rate");
        assertEquals(800e12 * 0.7, gpu.computeCeiling(Precision.FP8, ComputeEntry.Kind.GEMM).orElseThrow()
                .flopsPerSecond(), 1);
        assertEquals(50e12 * 0.8, gpu.computeCeiling(Precision.FP32, ComputeEntry.Kind.FMA_PEAK).orElseThrow()
                .flopsPerSecond(), 1, "vector.float32 is the FP32 vector rate");
        assertTrue(r.skipped().stream().anyMatch(s -> s.startsWith("vector.float16")), r.skipped().toString());
        assertEquals(3000e9, p.nominal().memoryBandwidthOf("gpu").orElseThrow().bytesPerSecond());
        LevelCeiling read = gpu.levels().stream().filter(c -> c.level() == MemoryLevel.DRAM
                && c.access() == AccessPattern.READ).findFirst().orElseThrow();
        assertEquals(3000e9 * 0.85, read.bytesPerSecond(), 1);
        assertEquals("mem1.MB_efficiency", gpu.bandwidth().get(0).provenance().settings().get("table"));
        assertEquals("[[100, 0.85], [1, 0.6], [0, 0.3]]", gpu.bandwidth().get(0).provenance().settings().get("rows"),
                "the whole table travels in the provenance");
        assertEquals(100_000_000L, gpu.bandwidth().get(0).workingSetBytes(), "MB are 10^6 bytes");
    }

    @Test
    void calculonsOffloadMemoryIsAHostAndItsLinkAndItsTiersAreLinksAtBandwidthTimesEfficiency() {
        Profile p = read(ImportFormat.CALCULON, SYSTEM).profile();
        Device host = p.device("cpu").orElseThrow();
        assertEquals(DeviceKind.CPU, host.kind());
        assertEquals(256L << 30, host.memory().capacityBytes());
        assertEquals(40e9, p.nominal().memoryBandwidthOf("cpu").orElseThrow().bytesPerSecond());
        Link mem2 = p.link("mem2").orElseThrow();
        assertEquals(LinkKind.PCIE, mem2.kind(), "the host link offloading goes over");
        assertEquals(40e9 * 0.9, mem2.bandwidthBytesPerSecond().best(), 1);
        Link tier0 = p.link("tier0").orElseThrow();
        assertEquals(LinkKind.NVLINK, tier0.kind());
        assertEquals(400e9 * 0.75, tier0.bandwidthBytesPerSecond().best(), 1, "Calculon moves bandwidth x efficiency");
        assertEquals(10_000, tier0.latencyNanos(), 1e-6);
        assertEquals("8", tier0.provenance().settings().get("size"));
        Link tier1 = p.link("tier1").orElseThrow();
        assertEquals(LinkKind.NETWORK, tier1.kind());
        assertEquals(50e9 * 0.9, tier1.bandwidthBytesPerSecond().best(), 1);
    }

    @Test
    void aNetworkOfOneDeviceAndAnEmptyOffloadMemoryBecomeNothingAndSaySo() {
        String single = SYSTEM.replace("\"size\": 8", "\"size\": 1").replace("\"GiB\": 256", "\"GiB\": 0");
        HardwareFileImport.Result r = read(ImportFormat.CALCULON, single);
        assertTrue(r.profile().link("tier0").isEmpty());
        assertTrue(r.profile().device("cpu").isEmpty());
        assertTrue(r.profile().link("mem2").isEmpty());
        assertTrue(r.skipped().stream().anyMatch(s -> s.startsWith("networks[0] (size 1")), r.skipped().toString());
        assertTrue(r.skipped().stream().anyMatch(s -> s.startsWith("mem2 (0 GiB")), r.skipped().toString());
    }

    @Test
    void aCpuDeviceIdMakesACpuAndTheOffloadMemoryAnotherHost() {
        Profile p = read(ImportFormat.CALCULON, SYSTEM, "cpu").profile();
        assertEquals(DeviceKind.CPU, p.device("cpu").orElseThrow().kind());
        assertEquals(DeviceKind.CPU, p.device("host").orElseThrow().kind());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            unknown key                    | "peak_fp16_TFLOPS": 250,        | "peak_fp16_TFLOPS": 250, "peak_bf16_TFLOPS": 250, | peak_bf16_TFLOPS must be a key llm-analysis reads
            zero bandwidth                 | "hbm_bandwidth_in_GB_per_sec": 1500 | "hbm_bandwidth_in_GB_per_sec": 0    | hbm_bandwidth_in_GB_per_sec must be a positive number of GB/s
            negative capacity              | "mem_per_GPU_in_GB": 48          | "mem_per_GPU_in_GB": -48            | mem_per_GPU_in_GB=-48
            negative latency               | 5e-06                           | -5e-06                              | intra_node_min_message_latency must be zero or a positive number of s
            a number as text               | "peak_fp16_TFLOPS": 250         | "peak_fp16_TFLOPS": "250"           | peak_fp16_TFLOPS must be a number of TFLOP/s
            a missing key without default  | "peak_fp16_TFLOPS": 250,        | ''                                  | peak_fp16_TFLOPS must be given (GPUConfig has no default
            a name that is no text         | "name": "test-gpu"              | "name": 7                           | name must be the GPU's name
            a figure beyond double         | "peak_i8_TFLOPS": 500           | "peak_i8_TFLOPS": 1e400             | peak_i8_TFLOPS must be a finite number
            """)
    void anLlmAnalysisFileTheToolWouldStopOnOrDivideByIsRefusedNamingTheKey(String what, String from, String to,
                                                                             String named) {
        assertTrue(GPU.contains(from), from);
        String message = refused(ImportFormat.LLM_ANALYSIS, GPU.replace(from, to)).getMessage();
        assertTrue(message.contains(named), message);
        assertTrue(message.contains("in.json"), message);
        assertFalse(message.contains("\n"), "one line");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            an efficiency above 1             | [[100, 0.9], [10, 0.8], [0, 0.2]] | [[100, 1.2], [10, 0.8], [0, 0.2]] | matrix.float16.gflops_efficiency[0][1] must be an efficiency in (0, 1]
            an efficiency of 0                | [[100, 0.85], [1, 0.6], [0, 0.3]] | [[100, 0.85], [1, 0], [0, 0.3]]   | mem1.MB_efficiency[1][1] must be an efficiency in (0, 1]
            thresholds rising                 | [[100, 0.9], [10, 0.8], [0, 0.2]] | [[10, 0.9], [100, 0.8], [0, 0.2]] | matrix.float16.gflops_efficiency[1][0] must be below the row before it
            thresholds repeated               | [[100, 0.85], [1, 0.6], [0, 0.3]] | [[100, 0.85], [100, 0.6], [0, 0.3]] | mem1.MB_efficiency[1][0] must be below the row before it
            a table not ending at 0           | [[10, 0.8], [0, 0.4]]             | [[10, 0.8], [1, 0.4]]             | vector.float32.gflops_efficiency must end at a threshold of 0
            an empty table                    | [[100, 0.9], [0, 0.5]]            | []                                | mem2.MB_efficiency must be a list of [MB, efficiency] rows
            a datatype Calculon lacks         | "float8": {                       | "int8": {                         | matrix.int8 must be a key Calculon reads
            an unknown top-level key          | "processing_mode": "no_overlap",  | "processing_mode": "no_overlap", "mem3": {}, | mem3 must be a key Calculon reads
            a processing mode Calculon lacks  | "no_overlap"                      | "overlap"                         | processing_mode must be roofline or no_overlap
            a network key too many            | "must_be_filled": true,           | "must_be_filled": true, "name": "nvl", | networks[0].name must be a key Calculon reads
            a network efficiency above 1      | "efficiency": 0.75                | "efficiency": 1.5                 | networks[0].efficiency must be in (0, 1]
            a processor usage of 1            | "processor_usage": 0.1            | "processor_usage": 1.0            | networks[0].processor_usage must be in [0, 1)
            a p2p offset                      | "p2p": [1.0, null], "reduce_scatter": [1.5, -1] | "p2p": [1.0, 0], "reduce_scatter": [1.5, -1] | networks[0].ops.p2p[1] must be null
            a collective without an offset    | "all_reduce": [2.0, -1]}          | "all_reduce": [2.0, null]}        | networks[0].ops.all_reduce[1] must be a number
            an op Calculon lacks              | "all_reduce": [2.0, -1]},         | "all_reduce": [2.0, -1], "broadcast": [1.0, 0]}, | networks[0].ops.broadcast must be a key Calculon reads
            a negative network bandwidth      | "bandwidth": 400                  | "bandwidth": -400                 | networks[0].bandwidth must be a positive number of GB/s
            a fractional size                 | "size": 8                         | "size": 8.5                       | networks[0].size must be a whole number
            zero offload bandwidth            | "GiB": 256, "GBps": 40            | "GiB": 256, "GBps": 0             | mem2.GBps must be a positive number of GB/s
            zero main memory                  | "GiB": 64                         | "GiB": 0                          | mem1.GiB must be a positive number of GiB
            zero peak                         | "tflops": 400                     | "tflops": 0                       | matrix.float16.tflops must be a positive number of TFLOP/s
            """)
    void aCalculonFileThatBreaksCalculonsOwnAssertsIsRefusedNamingTheKeyAndTheRule(String what, String from,
                                                                                  String to, String named) {
        assertTrue(SYSTEM.contains(from), from);
        String message = refused(ImportFormat.CALCULON, SYSTEM.replaceFirst(java.util.regex.Pattern.quote(from),
                java.util.regex.Matcher.quoteReplacement(to))).getMessage();
        assertTrue(message.contains(named), message);
        assertFalse(message.contains("\n"), "one line");
    }

    @Test
    void aCalculonFileMissingASectionIsRefused() {
        String noNetworks = SYSTEM.substring(0, SYSTEM.indexOf(",\n  \"networks\"")) + "\n}";
        assertTrue(refused(ImportFormat.CALCULON, noNetworks).getMessage().contains("networks must be given"));
    }

    @Test
    void aFileOfTheOtherToolOrNoneIsRefusedSayingWhatItIs() {
        assertTrue(refused(ImportFormat.LLM_ANALYSIS, SYSTEM).getMessage().contains("give --format calculon"));
        assertTrue(refused(ImportFormat.CALCULON, GPU).getMessage().contains("give --format llm-analysis"));
        assertTrue(refused(ImportFormat.LLM_ANALYSIS, "[1, 2]").getMessage().contains("must be a JSON object"));
        assertTrue(refused(ImportFormat.LLM_ANALYSIS, "").getMessage().contains("not an empty file"));
        assertTrue(refused(ImportFormat.LLM_ANALYSIS, "{\"Flops\": 100, \"Memory_size\": 80, \"Memory_BW\": 2000, "
                + "\"ICN\": 150, \"real_values\": true}").getMessage().contains("GenZ system dictionary"));
        assertTrue(refused(ImportFormat.CALCULON, "{\"schema\": \"membound-profile\", \"schemaVersion\": 3}")
                .getMessage().contains("not a membound profile"));
        assertTrue(refused(ImportFormat.LLM_ANALYSIS, "{\"exportedBy\": \"membound export --to llm-analysis\", "
                + "\"figures\": [{\"file\": \"g.json\"}]}").getMessage().contains("GPU file=g.json"));
    }

    @Test
    void theReadLinesNameEveryKeyOnce() {
        List<String> read = read(ImportFormat.LLM_ANALYSIS, GPU).read();
        for (String key : LlmAnalysisGpuFile.fields()) {
            if (key.equals("peak_i4_TFLOPS")) {
                continue;
            }
            assertEquals(1, read.stream().filter(l -> l.startsWith(key + " = ")).count(), key + " in " + read);
        }
    }
}
