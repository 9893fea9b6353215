package membound.hardware.host;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.vocabulary.units.Units;

/**
 * Cache sizes from {@code getconf -a} (glibc, from CPUID). It gives sizes only, so the sharing is assumed:
 * L1 and L2 per core, L3 and beyond per package, and a warning says so.
 */
final class GetconfCacheReader {

    private static final Pattern LINE = Pattern.compile(
            "(?m)^LEVEL(\\d)_(ICACHE|DCACHE|CACHE)_SIZE[ \\t]*(\\S*)[ \\t]*$");

    private final SystemFiles files;
    private final List<String> warnings;

    /** @param warnings where what could not be read is said, in the order it is found */
    GetconfCacheReader(SystemFiles files, List<String> warnings) {
        this.files = files;
        this.warnings = warnings;
    }

    /** The instances getconf's sizes give on this topology; none where getconf gave no text or no sizes. */
    List<CacheInstance> instances(Topology topology) {
        if (files.getconfText().isEmpty()) {
            return List.of();
        }
        List<CacheInstance> instances = new ArrayList<>();
        Matcher m = LINE.matcher(files.getconfText().get());
        Set<String> seen = new TreeSet<>();
        while (m.find()) {
            int level = Integer.parseInt(m.group(1));
            CacheType type = switch (m.group(2)) {
                case "ICACHE" -> CacheType.INSTRUCTION;
                case "DCACHE" -> CacheType.DATA;
                default -> CacheType.UNIFIED;
            };
            String value = m.group(3);
            if (value.isEmpty() || !seen.add(level + "/" + type)) {
                continue;
            }
            Optional<Long> size = FileNumbers.parseLong(value);
            if (size.isEmpty()) {
                warnings.add("getconf LEVEL" + level + " cache size must be a number of bytes: size=" + value
                        + "; skipped");
                continue;
            }
            if (size.get() <= 0) {
                continue;
            }
            // glibc reports sizes only: L1 and L2 are per core on every x86 and Arm server part we know,
            // the L3 is taken as one per package, which is the most it can be.
            Map<Integer, Set<Integer>> groups = level <= 2 ? topology.coreThreads() : topology.packageGroups();
            for (Set<Integer> group : new LinkedHashSet<>(groups.values())) {
                instances.add(new CacheInstance(level, type, size.get(), Set.copyOf(group), "getconf"));
            }
        }
        if (!instances.isEmpty()) {
            warnings.add("cache sizes from getconf (no sysfs cache directories): sharing assumed, L1 and L2 per "
                    + "core, L3 per package");
            instances.stream().filter(i -> i.level() >= 3).findFirst().ifPresent(l3 -> warnings.add(
                    "L" + l3.level() + " size " + Units.formatBytes(l3.sizeBytes())
                            + " from getconf (CPUID) may be the whole socket's, more than these cpus can use "
                            + "(as in a VM); DRAM working sets sized from it are larger than needed, not smaller"));
        }
        return instances;
    }
}
