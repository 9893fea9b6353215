package membound.cli.command;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import membound.profile.BandwidthEntry;
import membound.profile.Device;
import membound.profile.Distribution;
import membound.profile.Provenance;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.MemoryLevel;

class ByPlacementTest {

    private static BandwidthEntry triad(String placement, int threads, double bytesPerSecond) {
        return new BandwidthEntry("triad-" + placement.toLowerCase() + "-" + threads, "triad",
                membound.vocabulary.AccessPattern.TRIAD, false, "double", membound.vocabulary.Implementation.VECTOR, threads,
                placement, 3L << 30, MemoryLevel.DRAM, Distribution.single(bytesPerSecond), null,
                Provenance.measured("StreamBenchmark Triad (vector)", null, Map.of()));
    }

    private static Device cpu(BandwidthEntry... entries) {
        Device bare = Device.of("cpu", DeviceKind.CPU, "GB10", new Device.Memory(null, null, null), List.of());
        return new Device(bare.id(), bare.kind(), bare.name(), bare.memory(), bare.unifiedMemoryWith(), List.of(entries),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
    }

    @Test
    void shouldPutEachCoreTypeBesideAllCoresWithTheLargestTeamOfEach() {
        String text = CalibrateCommand.byPlacement(cpu(triad("Cortex-X925", 10, 120e9), triad("Cortex-A725", 10, 80e9),
                triad("all", 1, 30e9), triad("all", 20, 150e9)));

        assertEquals("by placement (median, STREAM bytes):\n"
                + "  DRAM triad double    Cortex-X925 10 threads 120.0 GB/s   Cortex-A725 10 threads 80.0 GB/s   "
                + "all 20 threads 150.0 GB/s\n", text);
    }

    @Test
    void shouldSayNothingWhereEverythingRanOnAllCpus() {
        assertEquals("", CalibrateCommand.byPlacement(cpu(triad("all", 1, 30e9), triad("all", 2, 50e9))));
    }
}
