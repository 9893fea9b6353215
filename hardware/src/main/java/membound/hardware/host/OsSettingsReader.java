package membound.hardware.host;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Kernel settings that bias a bandwidth measurement: the transparent huge page mode and the cpufreq governor.
 * Each setting that may lower or blur a figure is said in a warning.
 */
final class OsSettingsReader {

    static final String THP = "sys/kernel/mm/transparent_hugepage/enabled";

    private static final Pattern MODE_IN_FORCE = Pattern.compile("\\[(\\w+)]");

    private final SystemFiles files;
    private final List<String> warnings;

    /** @param warnings where what could not be read is said, in the order it is found */
    OsSettingsReader(SystemFiles files, List<String> warnings) {
        this.files = files;
        this.warnings = warnings;
    }

    /** The THP mode in force ({@code always}, {@code madvise}, {@code never}), or {@code unknown}. */
    String transparentHugePages() {
        Optional<String> text = files.readTrimmed(THP);
        if (text.isEmpty()) {
            return "unknown";
        }
        Matcher m = MODE_IN_FORCE.matcher(text.get());
        if (!m.find()) {
            warnings.add(THP + " must mark the mode in force as [mode]: enabled=" + text.get());
            return "unknown";
        }
        String mode = m.group(1);
        if (mode.equals("madvise")) {
            warnings.add(Host.THP_MADVISE_WARNING);
        } else if (mode.equals("never")) {
            warnings.add("transparent huge pages are 'never': TLB misses may lower bandwidth on large arrays");
        }
        return mode;
    }

    /** Warns, per governor, where cpus run under another than {@code performance}. */
    void checkGovernors(List<Integer> cpus) {
        Map<String, List<Integer>> byGovernor = new TreeMap<>();
        for (int cpu : cpus) {
            files.readTrimmed(TopologyReader.CPU_DIR + "/cpu" + cpu + "/cpufreq/scaling_governor")
                    .ifPresent(g -> byGovernor.computeIfAbsent(g, k -> new ArrayList<>()).add(cpu));
        }
        byGovernor.forEach((governor, on) -> {
            if (!governor.equals("performance")) {
                warnings.add("cpufreq governor is '" + governor + "' on cpus " + CpuList.format(on)
                        + ", not 'performance': clocks may ramp during short measurements");
            }
        });
    }
}
