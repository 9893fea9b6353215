package membound.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import membound.hardware.catalog.Catalog;
import membound.hardware.catalog.DeviceSpec;
import membound.profile.Device;
import membound.profile.Nominal;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Quality;
import membound.vocabulary.DeviceKind;

/**
 * {@code predict} on a profile with a GPU trains on the GPU: on the fixture made from published GB10 measurements
 * (results/profiles/examples/dgx-spark-gpu-published.json, until a recorded GPU run replaces it), and on a profile
 * whose GPU was not measured, where the catalog's published measurements stand in and the notes say so.
 */
class GpuPredictTest {

    static final Path FIXTURE = TestProfiles.root().resolve("results/profiles/examples/dgx-spark-gpu-published.json");

    @TempDir
    Path dir;

    @Test
    void aProfileWithAMeasuredGpuTrainsOnIt() throws Exception {
        JsonNode json = predict(FIXTURE);
        assertTrue(json.path("machineName").asText().endsWith("(NVIDIA GB10 GPU)"), json.path("machineName").asText());
        assertCeiling(json, "DRAM read bandwidth", 232.5e9, "third-party measurement");
        assertCeiling(json, "bf16 GEMM", 92.3e12, "a BF16 GEMM reached 92.3 TFLOPS");
        // Elementwise work runs on the CUDA cores: their FP32 rate, not a tensor-core figure.
        assertCeiling(json, "vector (elementwise)", 31e12, "FP32 without tensor cores");
    }

    /** The fixture's nominal figures are the ones {@code calibrate --platform dgx-spark} writes from the catalog. */
    @Test
    void theFixtureHoldsEveryCatalogPeakOfTheSparksGpuAsCalibrateWritesIt() {
        Profile fixture = ProfileJson.read(FIXTURE);
        DeviceSpec gpu = Catalog.builtIn().require("dgx-spark").devices().stream()
                .filter(d -> d.kind() == DeviceKind.GPU).findFirst().orElseThrow();
        assertFalse(gpu.densePeakFlopsPerSecond().isEmpty());
        for (boolean sparse : new boolean[] {false, true}) {
            (sparse ? gpu.sparsePeakFlopsPerSecond() : gpu.densePeakFlopsPerSecond()).forEach((precision, figure) -> {
                Nominal.Compute nominal = fixture.nominal().compute().stream()
                        .filter(c -> c.state() == Nominal.State.KNOWN && c.deviceId().equals("gpu")
                                && c.sparse() == sparse && c.precision() == precision)
                        .findFirst().orElseThrow(() -> new AssertionError("the fixture lacks the catalog's "
                                + (sparse ? "sparse " : "dense ") + precision + " peak"));
                assertEquals(figure.value(), nominal.flopsPerSecond(), precision.label());
                assertEquals(figure.source(), nominal.provenance().source(), precision.label());
            });
        }
    }

    @Test
    void aGpuWithoutMeasurementsTakesThePublishedFiguresNotTheDatasheet() throws Exception {
        Profile fixture = ProfileJson.read(FIXTURE);
        Device gpu = fixture.device("gpu").orElseThrow();
        Profile unmeasured = new Profile(fixture.host(), fixture.nominal(), fixture.devices().stream()
                .map(d -> d.kind() == gpu.kind() ? Device.of(d.id(), d.kind(), d.name(), d.memory(), d.unifiedMemoryWith())
                        : d).toList(), fixture.links(), fixture.efficiency(),
                new Quality(java.util.List.of(new Quality.Flag("gpu-not-measured",
                        "cuInit(0) failed: CUDA_ERROR_NO_DEVICE (100): no CUDA-capable device is detected", null, null))),
                fixture.provenance());
        Path file = dir.resolve("spark-gpu-unmeasured.json");
        Files.writeString(file, ProfileJson.toJson(unmeasured));
        JsonNode json = predict(file);
        assertTrue(json.path("machineName").asText().endsWith("(NVIDIA GB10 GPU)"), json.path("machineName").asText());
        assertCeiling(json, "DRAM read bandwidth", 232.5e9, "third-party measurement");
        assertCeiling(json, "bf16 GEMM", 92.3e12, "third-party measurement");
        String notes = json.path("notes").toString();
        assertTrue(notes.contains("published third-party measurements of dgx-spark stand in"), notes);
        assertTrue(notes.contains("gpu-not-measured: cuInit(0) failed: CUDA_ERROR_NO_DEVICE"), notes);
    }

    @Test
    void aMeasuredLaunchIntervalIsTheGpusPerKernelFloorInThePrediction() throws Exception {
        Profile fixture = ProfileJson.read(FIXTURE);
        membound.profile.LatencyEntry.Nanos interval = membound.profile.LatencyEntry.Nanos.ofSamples(2_400, 2_500, 2_600);
        membound.profile.LaunchEntry launch = new membound.profile.LaunchEntry(
                membound.profile.LatencyEntry.Nanos.ofSamples(6_000, 6_100, 6_500), interval,
                membound.profile.Provenance.measured("synthetic launch figures (test)", null, java.util.Map.of()));
        Profile withLaunch = new Profile(fixture.host(), fixture.nominal(), fixture.devices().stream()
                .map(d -> d.id().equals("gpu") ? d.withLaunch(launch) : d).toList(), fixture.links(),
                fixture.efficiency(), fixture.quality(), fixture.provenance());
        Path file = dir.resolve("spark-gpu-launch.json");
        Files.writeString(file, ProfileJson.toJson(withLaunch));
        JsonNode json = predict(file);
        assertCeiling(json, "kernel launch (least time of each kernel)", 2.5, "synthetic launch figures (test)");
        String notes = json.path("notes").toString();
        assertTrue(notes.contains("kernel launches: ") && notes.contains("at least 2.50 us each"), notes);
        double without = predict(FIXTURE).path("measured").path("stepSeconds").asDouble();
        double with = json.path("measured").path("stepSeconds").asDouble();
        assertTrue(with >= without, "a launch floor never makes a step faster: " + without + " -> " + with);
    }

    @Test
    void aMeasuredSharingCurveTakesTheGpusShareWhileCpuThreadsStream() throws Exception {
        Profile fixture = ProfileJson.read(FIXTURE);
        java.util.List<membound.profile.SharingEntry> curve = java.util.List.of(
                sharing("gpu", 0, 200e9), sharing("gpu", 10, 170e9), sharing("gpu", 20, 150e9),
                new membound.profile.SharingEntry("cpu", "triad", "double", 20, true,
                        membound.profile.Distribution.ofSamples(90e9),
                        membound.profile.Provenance.measured("synthetic sharing curve (test)", null, java.util.Map.of())));
        Profile shared = new Profile(fixture.host(), fixture.nominal(), fixture.devices().stream()
                .map(d -> d.id().equals("gpu") ? d.withSharing(curve) : d).toList(), fixture.links(),
                fixture.efficiency(), fixture.quality(), fixture.provenance());
        Path file = dir.resolve("spark-gpu-sharing.json");
        Files.writeString(file, ProfileJson.toJson(shared));
        JsonNode alone = predict(file);
        assertTrue(alone.path("notes").toString().contains("keeps 85% with 10 CPU threads, 75% with 20 CPU threads of "
                + "its Triad while CPU threads stream; 20 CPU threads reach 90.0 GB/s while the GPU streams"),
                alone.path("notes").toString());
        PredictCommandTest.Run r = PredictCommandTest.run("predict", "--profile", file.toString(), "--model",
                "llama-3.1-8b", "--cpu-streams", "20", "--format", "json");
        assertEquals(0, r.status(), r.both());
        JsonNode busy = new ObjectMapper().readTree(r.out());
        assertCeiling(busy, "DRAM read bandwidth", 232.5e9 * 0.75, "while 20 CPU threads stream");
        assertTrue(busy.path("measured").path("stepSeconds").asDouble()
                > alone.path("measured").path("stepSeconds").asDouble(), "a slower memory, a slower step");
        PredictCommandTest.Run none = PredictCommandTest.run("predict", "--profile", FIXTURE.toString(), "--model",
                "llama-3.1-8b", "--cpu-streams", "20");
        assertEquals(2, none.status(), none.both());
        assertTrue(none.both().contains("--cpu-streams needs a measured sharing curve"), none.both());
    }

    private static membound.profile.SharingEntry sharing(String measured, int threads, double bytesPerSecond) {
        return new membound.profile.SharingEntry(measured, "triad", "double", threads, false,
                membound.profile.Distribution.ofSamples(bytesPerSecond),
                membound.profile.Provenance.measured("synthetic sharing curve (test)", null, java.util.Map.of()));
    }

    private static void assertCeiling(JsonNode json, String name, double value, String source) {
        for (JsonNode ceiling : json.path("measuredCeilings")) {
            if (ceiling.path("ceiling").asText().equals(name)) {
                assertEquals(value, ceiling.path("value").asDouble(), value * 1e-9, name);
                assertTrue(ceiling.path("source").asText().contains(source), ceiling.toString());
                return;
            }
        }
        throw new AssertionError("no measured ceiling " + name + ": " + json.path("measuredCeilings"));
    }

    private static JsonNode predict(Path profile) throws Exception {
        PredictCommandTest.Run r = PredictCommandTest.run("predict", "--profile", profile.toString(), "--model",
                "llama-3.1-8b", "--format", "json");
        assertEquals(0, r.status(), r.both());
        return new ObjectMapper().readTree(r.out());
    }
}
