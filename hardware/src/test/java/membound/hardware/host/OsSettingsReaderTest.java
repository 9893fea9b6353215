package membound.hardware.host;

import static membound.hardware.host.Fixtures.write;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OsSettingsReaderTest {

    @Test
    void shouldWarnOncePerGovernorThatIsNotPerformance(@TempDir Path root) {
        String[] governors = {"performance", "powersave", "powersave", "performance", "powersave", "ondemand"};
        for (int cpu = 0; cpu < governors.length; cpu++) {
            write(root, "sys/devices/system/cpu/cpu" + cpu + "/cpufreq/scaling_governor", governors[cpu] + "\n");
        }
        List<String> warnings = new ArrayList<>();

        new OsSettingsReader(SystemFiles.fixture(root), warnings).checkGovernors(List.of(0, 1, 2, 3, 4, 5, 6));

        assertEquals(List.of(
                "cpufreq governor is 'ondemand' on cpus 5, not 'performance': clocks may ramp during short measurements",
                "cpufreq governor is 'powersave' on cpus 1-2,4, not 'performance': clocks may ramp during short "
                        + "measurements"), warnings);
    }
}
