package membound.cli.command;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.profile.Device;
import membound.profile.LatencyEntry;
import membound.profile.LaunchEntry;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Provenance;

/** The GPU's table at the end of a calibration: STREAM figures, the GEMMs with their shapes, the launch figures. */
class GpuTableTest {

    @Test
    void theTableHasTheGemmsAndTheLaunchFigures() {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.isDirectory(root.resolve(".ci"))) {
            root = root.getParent();
        }
        Profile profile = ProfileJson.read(root.resolve("results/profiles/examples/dgx-spark-gpu-published.json"));
        Device gpu = profile.device("gpu").orElseThrow().withLaunch(new LaunchEntry(
                LatencyEntry.Nanos.ofSamples(9_000, 9_100), LatencyEntry.Nanos.ofSamples(2_400, 2_500),
                Provenance.measured("synthetic launch figures (test)", null, Map.of())));
        String table = CalibrateCommand.gpuTable(gpu, profile);
        assertTrue(table.contains("  gemm    bf16 "), table);
        assertTrue(table.contains("92.3 TFLOP/s"), table);
        assertTrue(table.contains("launch: + synchronise 9.0 us, back to back 2.40 us (medians)"), table);
        assertTrue(!table.contains("null"), table);
    }
}
