package membound.hardware.host;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The cache instances, from the first source that has them (see {@link HostDetector}): sysfs
 * {@code cpu*&#47;cache/index*}, else {@code getconf -a} ({@link GetconfCacheReader}), else cpuinfo's
 * {@code cache size}.
 */
final class CacheReader {

    // sysfs writes 2048K, cpuinfo 1024 KB.
    private static final Pattern SIZE = Pattern.compile("(\\d+)\\s*([KMG]?)B?", Pattern.CASE_INSENSITIVE);

    private final SystemFiles files;
    private final List<String> warnings;

    /** @param warnings where what could not be read is said, in the order it is found */
    CacheReader(SystemFiles files, List<String> warnings) {
        this.files = files;
        this.warnings = warnings;
    }

    /** The instances of the first source with sizes; none, with a warning, where no source has any. */
    List<CacheInstance> instances(Topology topology, ProcessorBlocks processors, String vendor) {
        List<CacheInstance> instances = fromSources(topology, processors, vendor);
        if (instances.isEmpty()) {
            warnings.add("cache sizes unknown: no sysfs cache directories, no getconf sizes and no cpuinfo "
                    + "'cache size'; cache-resident working sets cannot be sized (give them explicitly)");
        }
        return instances;
    }

    private List<CacheInstance> fromSources(Topology topology, ProcessorBlocks processors, String vendor) {
        List<CacheInstance> sysfs = sysfsCaches(topology.cpus());
        if (sysfs.stream().anyMatch(i -> i.type().holdsData())) {
            return sysfs;
        }
        List<CacheInstance> getconf = new GetconfCacheReader(files, warnings).instances(topology);
        if (!getconf.isEmpty()) {
            return getconf;
        }
        return cpuinfoCaches(topology, processors, vendor);
    }

    private List<CacheInstance> sysfsCaches(List<Integer> cpus) {
        Map<String, CacheInstance> instances = new LinkedHashMap<>();
        Set<Integer> online = new TreeSet<>(cpus);
        for (int cpu : cpus) {
            for (String index : files.numbered(TopologyReader.CPU_DIR + "/cpu" + cpu + "/cache", "index")) {
                Optional<String> level = files.readTrimmed(index + "/level");
                Optional<String> type = files.readTrimmed(index + "/type");
                Optional<String> size = files.readTrimmed(index + "/size");
                Optional<Integer> levelValue = level.flatMap(FileNumbers::parseInt).filter(l -> l >= 1 && l <= 9);
                Optional<CacheType> typeValue = type.flatMap(CacheType::fromSysfs);
                Optional<Long> sizeValue = size.flatMap(CacheReader::parseSysfsSize);
                if (levelValue.isEmpty() || typeValue.isEmpty() || sizeValue.isEmpty()) {
                    warnings.add(index + " skipped: level must be 1-9, type Data/Instruction/Unified and size "
                            + "like 2048K: level=" + level.orElse("") + ", type=" + type.orElse("")
                            + ", size=" + size.orElse(""));
                    continue;
                }
                Set<Integer> shared = new TreeSet<>();
                Optional<String> list = files.readTrimmed(index + "/shared_cpu_list");
                if (list.isPresent()) {
                    try {
                        shared.addAll(CpuList.parse(list.get()));
                    } catch (IllegalArgumentException e) {
                        warnings.add(index + "/shared_cpu_list: " + e.getMessage() + "; taken as cpu " + cpu
                                + " alone");
                    }
                } else {
                    warnings.add(index + " has no shared_cpu_list; taken as private to cpu " + cpu);
                }
                shared.retainAll(online);
                shared.add(cpu);
                String key = levelValue.get() + "/" + typeValue.get() + "/" + shared;
                CacheInstance seen = instances.get(key);
                if (seen == null) {
                    instances.put(key, new CacheInstance(levelValue.get(), typeValue.get(), sizeValue.get(),
                            Set.copyOf(shared), "sysfs"));
                } else if (seen.sizeBytes() != sizeValue.get()) {
                    warnings.add(index + "/size is " + sizeValue.get() + " bytes but another cpu sharing it says "
                            + seen.sizeBytes() + "; kept the first");
                }
            }
        }
        return dropOverlaps(new ArrayList<>(instances.values()));
    }

    /** Instances of one level and type whose cpu sets overlap are inconsistent sysfs data: keep the first. */
    private List<CacheInstance> dropOverlaps(List<CacheInstance> instances) {
        List<CacheInstance> kept = new ArrayList<>();
        for (CacheInstance candidate : instances) {
            boolean overlaps = kept.stream().anyMatch(k -> k.level() == candidate.level()
                    && k.type() == candidate.type()
                    && k.cpus().stream().anyMatch(candidate.cpus()::contains));
            if (overlaps) {
                warnings.add("sysfs L" + candidate.level() + " " + candidate.type().name().toLowerCase(Locale.ROOT)
                        + " cache for cpus " + CpuList.format(List.copyOf(candidate.cpus()))
                        + " overlaps another instance; skipped");
            } else {
                kept.add(candidate);
            }
        }
        return kept;
    }

    private static Optional<Long> parseSysfsSize(String text) {
        Matcher m = SIZE.matcher(text.trim());
        return m.matches() ? FileNumbers.scaled(m.group(1), m.group(2)).filter(v -> v > 0) : Optional.empty();
    }

    /** cpuinfo's one {@code cache size}: the L2 on AMD, the last level on Intel, unknown elsewhere. */
    private List<CacheInstance> cpuinfoCaches(Topology topology, ProcessorBlocks processors, String vendor) {
        Optional<String> text = processors.byCpu().values().stream().map(p -> p.get("cache size"))
                .filter(v -> v != null).findFirst();
        if (text.isEmpty()) {
            return List.of();
        }
        Matcher m = SIZE.matcher(text.get().trim());
        Optional<Long> size = m.matches() ? FileNumbers.scaled(m.group(1), m.group(2)) : Optional.empty();
        if (size.isEmpty() || size.get() <= 0) {
            warnings.add(CpuIdentityReader.CPUINFO + " cache size must be a size such as 1024 KB: cache size="
                    + text.get() + "; skipped");
            return List.of();
        }
        // The kernel fills "cache size" with the L2 on AMD and with the last level on Intel.
        int level;
        Map<Integer, Set<Integer>> groups;
        if (vendor.equals("AuthenticAMD")) {
            level = 2;
            groups = topology.coreThreads();
        } else if (vendor.equals("GenuineIntel")) {
            level = 3;
            groups = topology.packageGroups();
        } else {
            warnings.add(CpuIdentityReader.CPUINFO + " cache size " + text.get()
                    + " skipped: its level is unknown for vendor " + vendor);
            return List.of();
        }
        List<CacheInstance> instances = new ArrayList<>();
        for (Set<Integer> group : new LinkedHashSet<>(groups.values())) {
            instances.add(new CacheInstance(level, CacheType.UNIFIED, size.get(), Set.copyOf(group), "cpuinfo"));
        }
        warnings.add("only the L" + level + " size is known (from " + CpuIdentityReader.CPUINFO
                + " 'cache size', vendor " + vendor + "); other cache levels unknown");
        return instances;
    }
}
