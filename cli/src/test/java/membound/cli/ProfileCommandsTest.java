package membound.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.calibrator.store.ProfileStore;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.LinkKind;
import membound.vocabulary.MemoryLevel;

/**
 * Smoke tests of show, compare, import and fleet through {@code Membound.run}, as a user types them.
 * Output is printed only when a test fails.
 */
class ProfileCommandsTest {

    record Run(int exit, String out, String err) {
        String both() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err;
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = Membound.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    static Run ok(String... args) {
        Run r = run(args);
        assertEquals(0, r.exit(), () -> "membound " + String.join(" ", args) + " must succeed:\n" + r.both());
        return r;
    }

    @TempDir
    Path dir;
    Path profiles;
    Path spark;
    byte[] sparkBytes;

    @BeforeEach
    void store() throws IOException {
        profiles = dir.resolve("profiles");
        spark = new ProfileStore(profiles).save(TestProfiles.exampleProfile());
        sparkBytes = Files.readAllBytes(spark);
    }

    List<Path> profileFiles() throws IOException {
        return new ProfileStore(profiles).list();
    }

    @Test
    void showPrintsTheSummaryAndTheProfileAsJson() throws IOException {
        Run text = ok("show", spark.toString());
        assertTrue(text.out().contains("DRAM triad    112.0 GB/s median, p5-p95 106.8 GB/s - 116.0 GB/s"), text.both());
        assertTrue(text.out().contains("memory of cpu, gpu: 273.0 GB/s"), text.both());
        assertTrue(text.out().contains("gpu bf16 dense: unknown"), text.both());
        assertTrue(text.out().contains("spark-pair: gpu -> peer (network), 22.5 GB/s"), text.both());
        Run json = ok("show", "latest", "--profiles-dir", profiles.toString(), "--format", "json");
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertEquals(spark.toString(), root.get("file").asText());
        assertEquals("membound-profile", root.get("profile").get("schema").asText());
        assertEquals(112000000000L, root.get("profile").get("devices").get(0).get("levels").get(6)
                .get("bytesPerSecond").asLong(), json.both());
    }

    @Test
    void compareCallsAChangeOnlyOutsideTheSpread() throws IOException {
        ProfileStore store = new ProfileStore(profiles);
        Path slightly = store.save(TestProfiles.withSettings(TestProfiles.slowerCpuDram(TestProfiles.exampleProfile(),
                0.98), Map.of(), "2025-12-01T00:00:00Z"));
        Path much = store.save(TestProfiles.withSettings(TestProfiles.slowerCpuDram(TestProfiles.exampleProfile(),
                0.80), Map.of(), "2025-12-02T00:00:00Z"));

        Run within = ok("compare", spark.toString(), slightly.toString(), "--format", "json");
        JsonNode triad = row(within, "cpu/ceiling/DRAM/triad");
        assertEquals(0.98, triad.get("ratio").asDouble(), 1e-12);
        assertEquals("within-spread", triad.get("verdict").asText(), within.both());

        Run slower = ok("compare", spark.toString(), much.toString(), "--format", "json");
        assertEquals("worse", row(slower, "cpu/ceiling/DRAM/triad").get("verdict").asText(), slower.both());
        assertEquals(0.8, row(slower, "cpu/ceiling/DRAM/triad").get("ratio").asDouble(), 1e-12);
        assertEquals("no-spread", row(slower, "gpu/compute/gemm/bf16/threads=?").get("verdict").asText());
        assertEquals("within-spread", row(slower, "cpu/ceiling/L1/triad").get("verdict").asText());

        Run text = ok("compare", "latest:spark-example", spark.toString(), "--profiles-dir", profiles.toString());
        assertTrue(text.out().contains("cpu/ceiling/DRAM/triad"), text.both());
        assertTrue(text.out().contains("better (A 85.4 GB/s - 92.8 GB/s, B 106.8 GB/s - 116.0 GB/s)"), text.both());
        Run one = ok("compare", spark.toString(), much.toString(), "--figure", "cpu/ceiling/DRAM");
        assertFalse(one.out().contains("cpu/ceiling/L1"), one.both());
    }

    @Test
    void compareAgainstNominalGivesRatiosAndSaysWhatIsUnknown() throws IOException {
        Run json = ok("compare", spark.toString(), "--nominal", "--format", "json");
        JsonNode rows = new ObjectMapper().readTree(json.out()).get("rows");
        JsonNode triad = find(rows, "key", "cpu/ceiling/DRAM/triad");
        assertEquals(112e9 / 273e9, triad.get("ratio").asDouble(), 1e-12);
        JsonNode bf16 = find(rows, "key", "gpu/compute/gemm/bf16");
        assertTrue(bf16.get("nominal") == null || bf16.get("nominal").isNull(), json.both());
        assertTrue(bf16.get("nominalSource").asText().startsWith("unknown: NVIDIA publishes no dense BF16"));
        Run text = ok("compare", spark.toString(), "--nominal");
        assertTrue(text.out().contains("41.0%"), text.both());
    }

    @Test
    void importWritesANewProfileAndLeavesTheInputAlone() throws IOException {
        Run r = ok("import", "--format", "babelstream", TestProfiles.localFixture(
                "babelstream-5.0-omp-text-double.txt").toString(), "--into", spark.toString(),
                "--profiles-dir", profiles.toString());
        assertArrayEquals(sparkBytes, Files.readAllBytes(spark), "the input profile is byte-identical");
        List<Path> files = profileFiles();
        assertEquals(2, files.size(), r.both());
        Profile imported = ProfileJson.read(files.get(1));
        assertTrue(r.out().startsWith("wrote " + files.get(1)), r.both());
        var entry = imported.device("cpu").orElseThrow().bandwidthEntry("cpu-babelstream-triad-double").orElseThrow();
        assertEquals(27701.843e6, entry.streamBytesPerSecond().best());
        assertEquals("BabelStream 5.0 output", entry.provenance().source());
        assertTrue(entry.provenance().file().endsWith("babelstream-5.0-omp-text-double.txt"));
        assertEquals(112e9, imported.device("cpu").orElseThrow().ceiling(MemoryLevel.DRAM, AccessPattern.TRIAD)
                .orElseThrow().bytesPerSecond(), "an import never replaces a measured ceiling");
        assertEquals(spark.getFileName().toString(), imported.provenance().derivedFrom().get(0).file());
        assertTrue(imported.provenance().commandLine().startsWith("membound import --format babelstream "));
        assertEquals(imported.provenance().settings(), TestProfiles.exampleProfile().provenance().settings());
    }

    @Test
    void importsEachToolIntoTheRightDeviceOrLink() throws IOException {
        Path bare = dir.resolve("bare.json");
        Profile example = TestProfiles.exampleProfile();
        Profile noGpu = new Profile(example.host(), example.nominal(), List.of(bareCpu(example.device("cpu")
                .orElseThrow())), List.of(), example.efficiency(), example.quality(), example.provenance());
        Files.write(bare, ProfileJson.toBytes(noGpu));

        Path streamOut = dir.resolve("stream.json");
        ok("import", "--format", "stream", TestProfiles.localFixture("stream-c-5.10-2threads-80M.txt").toString(),
                "--into", bare.toString(), "--output", streamOut.toString());
        Profile stream = ProfileJson.read(streamOut);
        assertEquals(22634.0e6, stream.device("cpu").orElseThrow().ceiling(MemoryLevel.DRAM, AccessPattern.TRIAD)
                .orElseThrow().bytesPerSecond(), "a device without a ceiling gets the imported one");
        assertTrue(stream.quality().flags().stream().anyMatch(f -> f.code().equals("fewer-threads-than-cores")));

        Path likwidOut = dir.resolve("likwid.json");
        ok("import", "--format", "likwid", TestProfiles.localFixture("likwid-bench-5.2.2-load_avx-N-1GB-2.txt")
                .toString(), "--into", streamOut.toString(), "--output", likwidOut.toString());
        Profile likwid = ProfileJson.read(likwidOut);
        assertEquals(29199.20e6, likwid.device("cpu").orElseThrow().ceiling(MemoryLevel.DRAM, AccessPattern.READ)
                .orElseThrow().bytesPerSecond());
        assertTrue(likwid.quality().flags().stream().anyMatch(f -> f.code().equals("no-spread")));

        Path nvOut = dir.resolve("nv.json");
        Run nv = ok("import", "--format", "nvbandwidth", TestProfiles.localFixture(
                "nvbandwidth-v0.8-j-gb10-synthetic.json").toString(), "--into", likwidOut.toString(),
                "--unified-memory-with", "cpu", "--output", nvOut.toString(), "--format", "json");
        JsonNode report = new ObjectMapper().readTree(nv.out());
        assertEquals("v0.8", report.get("toolVersion").asText(), nv.both());
        Profile gpu = ProfileJson.read(nvOut);
        assertEquals("NVIDIA GB10 (000f:01:00)", gpu.device("gpu").orElseThrow().name());
        assertEquals(List.of("cpu"), gpu.device("gpu").orElseThrow().unifiedMemoryWith());
        assertEquals(2 * 112.387e9, gpu.device("gpu").orElseThrow().ceiling(MemoryLevel.DRAM, AccessPattern.COPY)
                .orElseThrow().bytesPerSecond(), 1);
        var c2c = gpu.link("cpu-gpu").orElseThrow();
        assertEquals(LinkKind.C2C, c2c.kind(), "a DGX Spark joins CPU and GPU by NVLink-C2C");
        assertEquals(801.562, c2c.latencyNanos());
        assertTrue(gpu.efficiency().bandwidth().stream().anyMatch(e -> e.deviceId().equals("gpu")));

        Path ncclOut = dir.resolve("nccl.json");
        ok("import", "--format", "nccl-tests", TestProfiles.localFixture(
                "nccl-tests-2.17.1-all_reduce_perf-2x-gb10-synthetic.txt").toString(), "--into", nvOut.toString(),
                "--link", "spark-pair", "--output", ncclOut.toString());
        var pair = ProfileJson.read(ncclOut).link("spark-pair").orElseThrow();
        assertEquals(LinkKind.NETWORK, pair.kind(), "ranks on two hosts: the network");
        assertEquals("gpu", pair.from());
        assertEquals("peer", pair.to());
        assertEquals(22.21e9, pair.bandwidthBytesPerSecond().best(), 1);
        assertEquals("nccl-tests 2.17.1 output", pair.provenance().source());
    }

    @Test
    void importSaysWhatItInferredAndFromWhatAndLinkKindOnlyOverrides() throws IOException {
        Path noPlatform = dir.resolve("no-platform.json");
        Files.write(noPlatform, ProfileJson.toBytes(TestProfiles.withoutPlatform(TestProfiles.exampleProfile())));
        String nv = TestProfiles.localFixture("nvbandwidth-v0.8-j-gb10-synthetic.json").toString();
        Run inferred = ok("import", "--format", "nvbandwidth", nv, "--into", noPlatform.toString(), "--link", "host-link",
                "--output", dir.resolve("c2c.json").toString());
        assertTrue(inferred.out().contains("inferred link kind c2c from device NVIDIA GB10 (000f:01:00): CPU and GPU "
                + "joined by NVLink-C2C"), inferred.both());
        assertEquals(LinkKind.C2C, ProfileJson.read(dir.resolve("c2c.json")).link("host-link").orElseThrow().kind());

        Run overridden = ok("import", "--format", "nvbandwidth", nv, "--into", noPlatform.toString(), "--link",
                "host-link", "--link-kind", "pcie", "--output", dir.resolve("pcie.json").toString());
        assertTrue(overridden.out().contains("inferred link kind pcie from --link-kind (the output shows c2c: device "
                + "NVIDIA GB10"), overridden.both());
        assertEquals(LinkKind.PCIE, ProfileJson.read(dir.resolve("pcie.json")).link("host-link").orElseThrow().kind());

        Run nccl = ok("import", "--format", "nccl-tests", TestProfiles.localFixture(
                        "published/nccl-tests-2.17.9-a100-16ranks-slurm-elided.txt").toString(), "--into",
                noPlatform.toString(), "--output", dir.resolve("nccl.json").toString());
        assertTrue(nccl.out().contains("inferred ranks 16 from busbw/algbw = 1.87"), nccl.both());
        assertTrue(nccl.out().contains("inferred link kind network from ranks on 2 hosts in the rank lines"), nccl.both());
    }

    @Test
    void importUnderTheWrongFormatNamesTheToolTheFileLooksLike() {
        Run r = run("import", "--format", "babelstream", TestProfiles.localFixture(
                "published/stream-c-5.10-intel-knl.txt").toString(), "--into", spark.toString(),
                "--profiles-dir", profiles.toString());
        assertEquals(2, r.exit(), r.both());
        assertTrue(r.err().contains("--format babelstream must name the tool whose output the file is"), r.both());
        assertTrue(r.err().contains("looks like McCalpin stream.c output"), r.both());
        assertTrue(r.err().strip().endsWith("give --format stream"), r.both());
        assertEquals(1, r.err().strip().lines().count(), r.both());
    }

    @Test
    void fleetNamesTheSlowNodeAndRefusesMixedSettings() throws IOException {
        Path fleet = dir.resolve("fleet");
        for (int node = 1; node <= 4; node++) {
            Profile p = TestProfiles.withHost(TestProfiles.exampleProfile(), "node-" + node);
            if (node == 3) {
                p = TestProfiles.slowerCpuDram(p, 0.8);
            }
            new ProfileStore(fleet.resolve("node-" + node)).save(p);
        }
        Run text = ok("fleet", fleet.toString());
        assertTrue(text.out().contains("nodes: node-1, node-2, node-3, node-4\n"), text.both());
        assertTrue(text.out().contains("stands out: node-3"), text.both());
        assertTrue(text.out().contains("node-3 -20.0%"), text.both());
        Run json = ok("fleet", fleet.toString(), "--format", "json", "--figure", "cpu/ceiling/DRAM/triad");
        JsonNode root = new ObjectMapper().readTree(json.out());
        JsonNode triad = root.get("figures").get(0);
        assertEquals("cpu/ceiling/DRAM/triad", triad.get("key").asText());
        assertEquals(112e9, triad.get("median").asDouble(), 1);
        assertEquals(89.6e9, triad.get("min").asDouble(), 1);
        assertEquals("node-3", triad.get("outliers").get(0).get("node").asText());
        assertEquals(4, root.get("nodes").size());

        new ProfileStore(fleet.resolve("node-5")).save(TestProfiles.withSettings(TestProfiles.withHost(
                TestProfiles.exampleProfile(), "node-5"), Map.of("mode", "quick"), "2025-12-01T00:00:00Z"));
        Run refused = run("fleet", fleet.toString());
        assertEquals(2, refused.exit(), refused.both());
        assertTrue(refused.err().startsWith("membound: fleet profiles must share measurement settings, or the "
                + "spread would be the settings' and not the nodes' (pass --mixed-settings to summarize them anyway): "
                + "mode differs (quick: node-5-20251201T000000Z.json / "
                + "standard: "), refused.both());
        Run mixed = ok("fleet", fleet.toString(), "--mixed-settings");
        assertTrue(mixed.out().contains("MIXED SETTINGS: mode differs"), mixed.both());
    }

    @Test
    void fleetOfSmokeProfilesSaysTheirFiguresAreNotCeilings() throws IOException {
        Path fleet = dir.resolve("smoke-fleet");
        for (String node : List.of("gpu-01", "gpu-02")) {
            new ProfileStore(fleet.resolve(node)).save(TestProfiles.withSettings(TestProfiles.withHost(
                    TestProfiles.exampleProfile(), node), Map.of("mode", "smoke"), "2025-12-01T00:00:00Z"));
        }
        Run text = ok("fleet", fleet.toString());
        assertTrue(text.out().startsWith("fleet of 2 nodes in " + fleet + ";"), text.both());
        assertTrue(text.out().contains("nodes: gpu-01, gpu-02\n"), text.both());
        assertTrue(text.out().contains("smoke profiles (calibrate --smoke)"), text.both());
        assertTrue(text.out().contains("no node stands out"), text.both());
    }

    /** The bad-input catalogue: each is one line on stderr, exit status 2, and nothing written. */
    @Test
    void badInputIsOneLineExitTwoAndNothingWritten() throws IOException {
        Path garbage = Files.writeString(dir.resolve("garbage.txt"), "\u00ff\u00fe not a tool output at all\n");
        Path empty = Files.writeString(dir.resolve("empty.txt"), "");
        String stream = TestProfiles.localFixture("stream-c-5.10-2threads-80M.txt").toString();
        String streamText = Files.readString(Path.of(stream));
        Path truncatedStream = Files.writeString(dir.resolve("stream-cut.txt"),
                streamText.substring(0, streamText.indexOf("Triad:")));
        Path truncatedProfile = Files.writeString(dir.resolve("cut.json"),
                new String(sparkBytes, java.nio.charset.StandardCharsets.UTF_8).substring(0, 500));
        Path newerProfile = Files.writeString(dir.resolve("v7.json"),
                new String(sparkBytes, java.nio.charset.StandardCharsets.UTF_8)
                        .replace("\"schemaVersion\": 4,", "\"schemaVersion\": 7,"));
        String nccl = Files.readString(TestProfiles.localFixture(
                "nccl-tests-2.17.1-all_reduce_perf-2x-gb10-synthetic.txt"));
        Path wrongNccl = Files.writeString(dir.resolve("nccl-wrong.txt"), nccl.replaceFirst(
                "(?m)^(\\s+1073741824.*?)0(\\s+\\S+\\s+\\S+\\s+\\S+\\s+0)$", "$13$2"));
        Path truncatedNv = Files.writeString(dir.resolve("nv-cut.json"), Files.readString(TestProfiles.localFixture(
                "nvbandwidth-v0.8-j-gb10-synthetic.json")).substring(0, 300));
        Path noPlatform = dir.resolve("no-platform.json");
        Files.write(noPlatform, ProfileJson.toBytes(TestProfiles.withoutPlatform(TestProfiles.exampleProfile())));
        Path existing = Files.writeString(dir.resolve("existing.json"), "keep");
        Path emptyDir = Files.createDirectories(dir.resolve("empty-dir"));
        Path badFleet = Files.createDirectories(dir.resolve("bad-fleet"));
        Files.writeString(badFleet.resolve("node-20250101T000000Z.json"), "{\"schema\": \"membound-profile\"");
        String p = spark.toString();
        String dirs = profiles.toString();

        List<List<String>> cases = List.of(
                List.of("show", dir.resolve("missing.json").toString()),
                List.of("show", garbage.toString()),
                List.of("show", truncatedProfile.toString()),
                List.of("show", newerProfile.toString()),
                List.of("show", p, "--format", "xml"),
                List.of("show", "latest", "--profiles-dir", emptyDir.toString()),
                List.of("show", "latest:", "--profiles-dir", dirs),
                List.of("compare", p),
                List.of("compare", p, p, "--nominal"),
                List.of("compare", p, p, "--figure", "cpu/ceilng"),
                List.of("compare", p, "--nominal", "--format", "yaml"),
                List.of("import", "--format", "xml", stream, "--into", p, "--profiles-dir", dirs),
                List.of("import", "--format", "stream", dir.resolve("missing.txt").toString(), "--into", p,
                        "--profiles-dir", dirs),
                List.of("import", "--format", "stream", TestProfiles.localFixture(
                        "babelstream-5.0-omp-text-double.txt").toString(), "--into", p, "--profiles-dir", dirs),
                List.of("import", "--format", "stream", truncatedStream.toString(), "--into", p, "--profiles-dir", dirs),
                List.of("import", "--format", "babelstream", garbage.toString(), "--into", p, "--profiles-dir", dirs),
                List.of("import", "--format", "likwid", empty.toString(), "--into", p, "--profiles-dir", dirs),
                List.of("import", "--format", "nvbandwidth", truncatedNv.toString(), "--into", p, "--profiles-dir", dirs),
                List.of("import", "--format", "nvbandwidth", stream, "--into", p, "--profiles-dir", dirs),
                List.of("import", "--format", "nccl-tests", wrongNccl.toString(), "--into", p, "--profiles-dir", dirs),
                List.of("import", "--format", "stream", stream, "--into", dir.resolve("nope.json").toString(),
                        "--profiles-dir", dirs),
                List.of("import", "--format", "stream", stream, "--into", "latest", "--profiles-dir",
                        emptyDir.toString()),
                List.of("import", "--format", "stream", stream, "--into", p, "--device", "GPU!", "--profiles-dir", dirs),
                List.of("import", "--format", "nccl-tests", TestProfiles.localFixture(
                                "nccl-tests-2.17.1-all_reduce_perf-2x-gb10-synthetic.txt").toString(), "--into", p,
                        "--link", "new-link", "--link-kind", "wormhole", "--profiles-dir", dirs),
                List.of("import", "--format", "stream", stream, "--into", p, "--output", existing.toString()),
                List.of("import", "--format", "stream", "--format", "babelstream", stream, "--into", p,
                        "--profiles-dir", dirs),
                List.of("import", "--format", "stream", stream, "--into", p, "--gpu-index", "-1", "--profiles-dir", dirs),
                List.of("import", "--format", "stream", stream, "--into", p, "--unified-memory-with", "tpu",
                        "--device", "npu", "--profiles-dir", dirs),
                List.of("fleet", dir.resolve("no-such-dir").toString()),
                List.of("fleet", emptyDir.toString()),
                List.of("fleet", profiles.toString(), "--threshold", "150%"),
                List.of("fleet", badFleet.toString()),
                List.of("fleet", profiles.toString(), "--figure", "nothing/like/this"),
                List.of("fleet", profiles.toString(), "--format", "csv"));
        for (List<String> args : cases) {
            Run r = run(args.toArray(String[]::new));
            String shown = "membound " + String.join(" ", args) + "\n" + r.both();
            assertEquals(2, r.exit(), shown);
            assertTrue(r.err().startsWith("membound: "), shown);
            assertEquals(1, r.err().strip().lines().count(), "one line: " + shown);
            assertFalse(r.err().contains("Exception") || r.err().contains("\tat "), "no stack trace: " + shown);
            assertEquals("", r.out(), shown);
            assertEquals(List.of(spark), profileFiles(), "nothing written: " + shown);
            assertArrayEquals(sparkBytes, Files.readAllBytes(spark));
            assertEquals("keep", Files.readString(existing));
            try (Stream<Path> left = Files.list(dir)) {
                assertFalse(left.anyMatch(f -> f.getFileName().toString().startsWith(".")), "no temporary left");
            }
        }
    }

    /** The CPU device with no bandwidth figures and no other device sharing its memory. */
    private static membound.profile.Device bareCpu(membound.profile.Device d) {
        return new membound.profile.Device(d.id(), d.kind(), d.name(), d.memory(), List.of(), List.of(), List.of(),
                List.of(), d.latency(), d.compute(), d.computeCeilings(), List.of(), List.of());
    }

    private static JsonNode row(Run run, String key) throws IOException {
        return find(new ObjectMapper().readTree(run.out()).get("figures"), "key", key);
    }

    private static JsonNode find(JsonNode array, String field, String value) {
        for (JsonNode node : array) {
            if (node.get(field).asText().equals(value)) {
                return node;
            }
        }
        throw new AssertionError("no " + field + "=" + value + " in " + array);
    }
}
