package membound.hardware.host;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import membound.vocabulary.BadInputException;

/**
 * Finds out what machine this is, from the files Linux exposes and what the JVM knows.
 *
 * <p>Cache sizes come from the first source that has them, and each cache records which:
 * <ol>
 *   <li>sysfs {@code /sys/devices/system/cpu/cpu*&#47;cache/index*}: size, level, type and the cpus sharing
 *       each instance, so per-core and per-cluster caches come apart;</li>
 *   <li>{@code getconf -a} (glibc, from CPUID): sizes only, so sharing is assumed (L1 and L2 per core, L3 and
 *       beyond per package) and a warning says so;</li>
 *   <li>{@code /proc/cpuinfo} {@code cache size}: one level only (L2 on AMD, the last level on Intel);</li>
 *   <li>otherwise unknown, with a warning.</li>
 * </ol>
 * A malformed file is either refused with a {@link BadInputException} naming the file and value (a cpuinfo
 * whose processor numbers are not numbers) or recorded in {@link Host#warnings()} and skipped (a cache size
 * that does not parse); detection never guesses silently.
 */
public final class HostDetector {

    static final String CPUINFO = "proc/cpuinfo";
    static final String MEMINFO = "proc/meminfo";
    static final String CPU_DIR = "sys/devices/system/cpu";
    static final String NODE_DIR = "sys/devices/system/node";
    static final String DMI_DIR = "sys/class/dmi/id";
    static final String SVE_LENGTH = "proc/sys/abi/sve_default_vector_length";
    static final String THP = "sys/kernel/mm/transparent_hugepage/enabled";

    // Kernel's "no cluster" values for topology/cluster_id: -1 printed signed or as u16/u32.
    private static final Set<Long> NO_CLUSTER = Set.of(-1L, 65535L, 4294967295L);
    private static final Pattern SYSFS_SIZE = Pattern.compile("(\\d+)\\s*([KMG]?)B?", Pattern.CASE_INSENSITIVE);
    private static final Pattern GETCONF_LINE = Pattern.compile(
            "(?m)^LEVEL(\\d)_(ICACHE|DCACHE|CACHE)_SIZE[ \\t]*(\\S*)[ \\t]*$");
    private static final Pattern CPUINFO_CACHE = Pattern.compile("(\\d+)\\s*([KMG]?)B?", Pattern.CASE_INSENSITIVE);
    private static final Pattern MEMTOTAL = Pattern.compile("(?m)^MemTotal:\\s*(\\S+)\\s*(\\S*)\\s*$");

    private HostDetector() {
    }

    /** The machine this JVM runs on. */
    public static Host detect() {
        return detect(SystemFiles.live());
    }

    /** The machine the given files describe; what {@link #detect()} does over {@link SystemFiles#live()}. */
    public static Host detect(SystemFiles files) {
        return new Detection(files).run();
    }

    /** One cache instance as the topology reports it: a level, a type, a size, and the cpus sharing it. */
    record Instance(int level, CacheType type, long sizeBytes, Set<Integer> cpus, String source) {
    }

    /** One detection run: the files, and the warnings gathered while reading them. */
    private static final class Detection {

        private final SystemFiles files;
        private final List<String> warnings = new ArrayList<>();

        Detection(SystemFiles files) {
            this.files = files;
        }

        Host run() {
            List<Map<String, String>> processors = parseCpuinfo();
            Map<Integer, Map<String, String>> byCpu = new TreeMap<>();
            for (Map<String, String> p : processors) {
                byCpu.put(Integer.parseInt(p.get("processor")), p);
            }
            List<Integer> cpus = onlineCpus(byCpu);
            String architecture = architecture(processors);
            Set<String> flags = commonFlags(processors, architecture);

            Map<Integer, ArmCoreId> armIds = CpuInfo.AARCH64.equals(architecture) ? armIds(byCpu) : Map.of();
            Map<Integer, Integer> packages = packages(cpus, byCpu);
            Map<Integer, Set<Integer>> coreThreads = coreThreads(cpus, byCpu, packages);

            String vendor = vendor(processors, armIds);
            List<Instance> instances = cacheInstances(cpus, byCpu, vendor, coreThreads, packages);
            if (instances.isEmpty()) {
                warnings.add("cache sizes unknown: no sysfs cache directories, no getconf sizes and no cpuinfo "
                        + "'cache size'; cache-resident working sets cannot be sized (give them explicitly)");
            }

            List<CoreType> coreTypes = coreTypes(cpus, byCpu, armIds, architecture, instances, coreThreads);
            List<CpuCluster> clusters = clusters(cpus, instances, coreThreads, packages);
            String modelName = modelName(processors, coreTypes);

            CpuInfo cpu = new CpuInfo(vendor, modelName, architecture, flags);
            int vectorBits = vectorBitWidth(cpu);
            long memoryBytes = memoryBytes();
            int numaNodes = numaNodes();
            String thp = transparentHugePages();
            governorWarnings(cpus);
            Dmi dmi = new Dmi(files.readTrimmed(DMI_DIR + "/sys_vendor").orElse(""),
                    files.readTrimmed(DMI_DIR + "/product_name").orElse(""),
                    files.readTrimmed(DMI_DIR + "/board_name").orElse(""));
            int available = files.java().availableProcessors();
            if (available > 0 && available < cpus.size()) {
                warnings.add("the JVM may use " + available + " of the " + cpus.size()
                        + " online cpus (affinity mask or container limit): thread counts above "
                        + available + " share cpus");
            }
            List<Cache> caches = group(instances);
            Optional<PlatformMatch> platform = PlatformRecognizer.recognize(dmi, coreTypes, packages);
            return new Host(hostname(), cpu, cpus.size(), coreTypes, clusters, caches, memoryBytes, numaNodes, os(),
                    jdk(), vectorBits, thp, dmi, platform, warnings);
        }

        // ---- /proc/cpuinfo -------------------------------------------------------------------------

        /** The processor blocks of cpuinfo as key/value maps; keys as the kernel spells them. */
        private List<Map<String, String>> parseCpuinfo() {
            Optional<String> text = files.read(CPUINFO);
            if (text.isEmpty()) {
                warnings.add(CPUINFO + " could not be read: cpu vendor, model and flags unknown");
                return List.of();
            }
            List<Map<String, String>> processors = new ArrayList<>();
            Map<String, String> current = null;
            int unreadable = 0;
            for (String line : text.get().split("\n")) {
                if (line.isBlank()) {
                    continue;
                }
                int colon = line.indexOf(':');
                if (colon < 0) {
                    unreadable++;
                    continue;
                }
                String key = line.substring(0, colon).trim();
                String value = line.substring(colon + 1).trim();
                if (key.equals("processor")) {
                    try {
                        Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new BadInputException(CPUINFO + " processor must be a cpu number: processor=" + value);
                    }
                    current = new LinkedHashMap<>();
                    processors.add(current);
                }
                if (current != null) {
                    current.putIfAbsent(key, value);
                }
            }
            if (unreadable > 0) {
                warnings.add(CPUINFO + " has " + unreadable + " line(s) that are not 'key: value'; they were skipped");
            }
            if (processors.isEmpty()) {
                warnings.add(CPUINFO + " lists no processor: cpu vendor, model and flags unknown");
            }
            return processors;
        }

        /** Online cpus: sysfs {@code online}, else cpuinfo, else the cpu directories, else the JVM's count. */
        private List<Integer> onlineCpus(Map<Integer, Map<String, String>> byCpu) {
            List<Integer> cpus = List.of();
            Optional<String> online = files.readTrimmed(CPU_DIR + "/online");
            if (online.isPresent()) {
                try {
                    cpus = CpuList.parse(online.get());
                } catch (IllegalArgumentException e) {
                    warnings.add(CPU_DIR + "/online is not a cpu list (" + e.getMessage() + "); using cpuinfo");
                }
            }
            if (cpus.isEmpty() && !byCpu.isEmpty()) {
                cpus = List.copyOf(byCpu.keySet());
            }
            if (cpus.isEmpty()) {
                cpus = files.numbered(CPU_DIR, "cpu").stream()
                        .map(p -> (int) SystemFiles.trailingNumber(p)).toList();
            }
            if (cpus.isEmpty() && files.java().availableProcessors() > 0) {
                List<Integer> numbered = new ArrayList<>();
                for (int i = 0; i < files.java().availableProcessors(); i++) {
                    numbered.add(i);
                }
                cpus = numbered;
                warnings.add("cpus counted by the JVM only (no cpuinfo or sysfs): topology unknown");
            }
            if (cpus.isEmpty()) {
                throw new BadInputException("host must have at least one cpu in " + CPUINFO + ", " + CPU_DIR
                        + " or the JVM: cpus=0 (root " + files.root() + ")");
            }
            if (!byCpu.isEmpty() && !byCpu.keySet().containsAll(cpus)) {
                List<Integer> missing = cpus.stream().filter(c -> !byCpu.containsKey(c)).toList();
                warnings.add(CPUINFO + " lists " + byCpu.size() + " processors but " + cpus.size()
                        + " cpus are online; cpus " + CpuList.format(missing) + " are missing (truncated file?)");
            }
            return cpus;
        }

        /**
         * The architecture the JVM runs on. cpuinfo names it too, but under user-mode emulation (qemu-user on
         * CI) cpuinfo describes the emulating machine; the JVM's {@code os.arch} wins and a warning says so.
         */
        private String architecture(List<Map<String, String>> processors) {
            String fromCpuinfo = null;
            for (Map<String, String> p : processors) {
                if (p.containsKey("CPU implementer")) {
                    fromCpuinfo = CpuInfo.AARCH64;
                    break;
                }
                if (p.containsKey("vendor_id") || p.containsKey("flags")) {
                    fromCpuinfo = CpuInfo.X86_64;
                    break;
                }
            }
            String arch = files.java().osArch().toLowerCase(Locale.ROOT);
            String fromJvm = switch (arch) {
                case "amd64", "x86_64" -> CpuInfo.X86_64;
                case "aarch64", "arm64" -> CpuInfo.AARCH64;
                case "unknown" -> null;
                default -> arch;
            };
            if (fromCpuinfo != null && fromJvm != null && !fromCpuinfo.equals(fromJvm)) {
                warnings.add(CPUINFO + " describes an " + fromCpuinfo + " cpu but the JVM runs on " + fromJvm
                        + " (emulation?): cpu model, flags and caches are the emulating machine's");
                return fromJvm;
            }
            return fromCpuinfo != null ? fromCpuinfo : fromJvm != null ? fromJvm : "unknown";
        }

        /** The flags every cpu has: on a mixed-core chip, what code may use wherever it runs. */
        private Set<String> commonFlags(List<Map<String, String>> processors, String architecture) {
            String key = CpuInfo.AARCH64.equals(architecture) ? "Features" : "flags";
            Set<String> common = null;
            for (Map<String, String> p : processors) {
                String value = p.get(key);
                if (value == null) {
                    continue;
                }
                Set<String> these = new TreeSet<>(List.of(value.trim().split("\\s+")));
                these.remove("");
                if (common == null) {
                    common = these;
                } else {
                    common.retainAll(these);
                }
            }
            return common == null ? Set.of() : common;
        }

        private Map<Integer, ArmCoreId> armIds(Map<Integer, Map<String, String>> byCpu) {
            Map<Integer, ArmCoreId> ids = new TreeMap<>();
            List<String> bad = new ArrayList<>();
            for (Map.Entry<Integer, Map<String, String>> e : byCpu.entrySet()) {
                String implementer = e.getValue().get("CPU implementer");
                String part = e.getValue().get("CPU part");
                try {
                    ids.put(e.getKey(), new ArmCoreId(parseHex(implementer), parseHex(part)));
                } catch (IllegalArgumentException ex) {
                    bad.add("cpu " + e.getKey() + " (CPU implementer=" + implementer + ", CPU part=" + part + ")");
                }
            }
            if (!bad.isEmpty()) {
                warnings.add(CPUINFO + " CPU implementer and CPU part must be hex numbers such as 0x41 and 0xd85: "
                        + String.join("; ", bad.subList(0, Math.min(3, bad.size())))
                        + (bad.size() > 3 ? " and " + (bad.size() - 3) + " more" : "") + "; their core type is unknown");
            }
            return ids;
        }

        private static int parseHex(String text) {
            if (text == null) {
                throw new BadInputException("missing");
            }
            String t = text.trim().toLowerCase(Locale.ROOT);
            return Integer.parseInt(t.startsWith("0x") ? t.substring(2) : t, 16);
        }

        private String vendor(List<Map<String, String>> processors, Map<Integer, ArmCoreId> armIds) {
            if (!armIds.isEmpty()) {
                return String.join(" + ", armIds.values().stream().map(ArmCoreId::implementerName)
                        .collect(java.util.stream.Collectors.toCollection(LinkedHashSet::new)));
            }
            return processors.stream().map(p -> p.get("vendor_id")).filter(v -> v != null && !v.isBlank())
                    .findFirst().orElse("unknown");
        }

        private String modelName(List<Map<String, String>> processors, List<CoreType> coreTypes) {
            Optional<String> model = processors.stream().map(p -> p.get("model name"))
                    .filter(v -> v != null && !v.isBlank()).findFirst();
            if (model.isPresent() && coreTypes.stream().allMatch(t -> t.armId().isEmpty())) {
                return model.get();
            }
            // Arm cpuinfo has no model name; the core types are the most specific name there is.
            String types = String.join(" + ", coreTypes.stream()
                    .map(t -> t.cpus().size() + "x " + t.name()).toList());
            return types.isBlank() ? model.orElse("unknown") : types;
        }

        // ---- topology ------------------------------------------------------------------------------

        private Map<Integer, Integer> packages(List<Integer> cpus, Map<Integer, Map<String, String>> byCpu) {
            Map<Integer, Integer> packages = new TreeMap<>();
            for (int cpu : cpus) {
                String base = CPU_DIR + "/cpu" + cpu + "/topology/";
                Optional<String> id = files.readTrimmed(base + "physical_package_id")
                        .or(() -> files.readTrimmed(base + "package_id"))
                        .or(() -> Optional.ofNullable(byCpu.getOrDefault(cpu, Map.of()).get("physical id")));
                packages.put(cpu, id.flatMap(HostDetector::parseInt).filter(v -> v >= 0).orElse(0));
            }
            return packages;
        }

        /** For each cpu, the hardware threads of its core (itself alone when nothing says otherwise). */
        private Map<Integer, Set<Integer>> coreThreads(List<Integer> cpus, Map<Integer, Map<String, String>> byCpu,
                                                       Map<Integer, Integer> packages) {
            Map<Integer, Set<Integer>> threads = new TreeMap<>();
            Map<List<Integer>, Set<Integer>> byCoreId = new HashMap<>();
            for (int cpu : cpus) {
                Optional<String> list = files.readTrimmed(CPU_DIR + "/cpu" + cpu + "/topology/core_cpus_list")
                        .or(() -> files.readTrimmed(CPU_DIR + "/cpu" + cpu + "/topology/thread_siblings_list"));
                if (list.isPresent()) {
                    try {
                        Set<Integer> set = new TreeSet<>(CpuList.parse(list.get()));
                        set.add(cpu);
                        threads.put(cpu, set);
                        continue;
                    } catch (IllegalArgumentException e) {
                        warnings.add("cpu " + cpu + " topology/core_cpus_list: " + e.getMessage());
                    }
                }
                Optional<Integer> coreId = Optional.ofNullable(byCpu.getOrDefault(cpu, Map.of()).get("core id"))
                        .flatMap(HostDetector::parseInt);
                if (coreId.isPresent()) {
                    Set<Integer> set = byCoreId.computeIfAbsent(List.of(packages.get(cpu), coreId.get()),
                            k -> new TreeSet<>());
                    set.add(cpu);
                    threads.put(cpu, set);
                } else {
                    threads.put(cpu, new TreeSet<>(Set.of(cpu)));
                }
            }
            return threads;
        }

        // ---- caches --------------------------------------------------------------------------------

        private List<Instance> cacheInstances(List<Integer> cpus, Map<Integer, Map<String, String>> byCpu,
                                              String vendor, Map<Integer, Set<Integer>> coreThreads,
                                              Map<Integer, Integer> packages) {
            List<Instance> sysfs = sysfsCaches(cpus);
            if (sysfs.stream().anyMatch(i -> i.type().holdsData())) {
                return sysfs;
            }
            List<Instance> getconf = getconfCaches(cpus, coreThreads, packages);
            if (!getconf.isEmpty()) {
                return getconf;
            }
            return cpuinfoCaches(cpus, byCpu, vendor, coreThreads, packages);
        }

        private List<Instance> sysfsCaches(List<Integer> cpus) {
            Map<String, Instance> instances = new LinkedHashMap<>();
            Set<Integer> online = new TreeSet<>(cpus);
            for (int cpu : cpus) {
                for (String index : files.numbered(CPU_DIR + "/cpu" + cpu + "/cache", "index")) {
                    Optional<String> level = files.readTrimmed(index + "/level");
                    Optional<String> type = files.readTrimmed(index + "/type");
                    Optional<String> size = files.readTrimmed(index + "/size");
                    Optional<Integer> levelValue = level.flatMap(HostDetector::parseInt).filter(l -> l >= 1 && l <= 9);
                    Optional<CacheType> typeValue = type.flatMap(CacheType::fromSysfs);
                    Optional<Long> sizeValue = size.flatMap(HostDetector::parseSysfsSize);
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
                    Instance seen = instances.get(key);
                    if (seen == null) {
                        instances.put(key, new Instance(levelValue.get(), typeValue.get(), sizeValue.get(),
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
        private List<Instance> dropOverlaps(List<Instance> instances) {
            List<Instance> kept = new ArrayList<>();
            for (Instance candidate : instances) {
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

        private List<Instance> getconfCaches(List<Integer> cpus, Map<Integer, Set<Integer>> coreThreads,
                                             Map<Integer, Integer> packages) {
            if (files.getconfText().isEmpty()) {
                return List.of();
            }
            List<Instance> instances = new ArrayList<>();
            Matcher m = GETCONF_LINE.matcher(files.getconfText().get());
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
                Optional<Long> size = parseLong(value);
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
                Map<Integer, Set<Integer>> groups = level <= 2 ? coreThreads : packageGroups(cpus, packages);
                for (Set<Integer> group : new LinkedHashSet<>(groups.values())) {
                    instances.add(new Instance(level, type, size.get(), Set.copyOf(group), "getconf"));
                }
            }
            if (!instances.isEmpty()) {
                warnings.add("cache sizes from getconf (no sysfs cache directories): sharing assumed, L1 and L2 per "
                        + "core, L3 per package");
                instances.stream().filter(i -> i.level() >= 3).findFirst().ifPresent(l3 -> warnings.add(
                        "L" + l3.level() + " size " + membound.vocabulary.units.Units.formatBytes(l3.sizeBytes())
                                + " from getconf (CPUID) may be the whole socket's, more than these cpus can use "
                                + "(as in a VM); DRAM working sets sized from it are larger than needed, not smaller"));
            }
            return instances;
        }

        private List<Instance> cpuinfoCaches(List<Integer> cpus, Map<Integer, Map<String, String>> byCpu, String vendor,
                                             Map<Integer, Set<Integer>> coreThreads, Map<Integer, Integer> packages) {
            Optional<String> text = byCpu.values().stream().map(p -> p.get("cache size")).filter(v -> v != null)
                    .findFirst();
            if (text.isEmpty()) {
                return List.of();
            }
            Matcher m = CPUINFO_CACHE.matcher(text.get().trim());
            Optional<Long> size = m.matches() ? scaled(m.group(1), m.group(2)) : Optional.empty();
            if (size.isEmpty() || size.get() <= 0) {
                warnings.add(CPUINFO + " cache size must be a size such as 1024 KB: cache size=" + text.get()
                        + "; skipped");
                return List.of();
            }
            // The kernel fills "cache size" with the L2 on AMD and with the last level on Intel.
            int level;
            Map<Integer, Set<Integer>> groups;
            if (vendor.equals("AuthenticAMD")) {
                level = 2;
                groups = coreThreads;
            } else if (vendor.equals("GenuineIntel")) {
                level = 3;
                groups = packageGroups(cpus, packages);
            } else {
                warnings.add(CPUINFO + " cache size " + text.get() + " skipped: its level is unknown for vendor "
                        + vendor);
                return List.of();
            }
            List<Instance> instances = new ArrayList<>();
            for (Set<Integer> group : new LinkedHashSet<>(groups.values())) {
                instances.add(new Instance(level, CacheType.UNIFIED, size.get(), Set.copyOf(group), "cpuinfo"));
            }
            warnings.add("only the L" + level + " size is known (from " + CPUINFO + " 'cache size', vendor " + vendor
                    + "); other cache levels unknown");
            return instances;
        }

        private Map<Integer, Set<Integer>> packageGroups(List<Integer> cpus, Map<Integer, Integer> packages) {
            Map<Integer, Set<Integer>> byPackage = new TreeMap<>();
            for (int cpu : cpus) {
                byPackage.computeIfAbsent(packages.get(cpu), k -> new TreeSet<>()).add(cpu);
            }
            Map<Integer, Set<Integer>> groups = new TreeMap<>();
            for (int cpu : cpus) {
                groups.put(cpu, byPackage.get(packages.get(cpu)));
            }
            return groups;
        }

        // ---- core types and clusters ---------------------------------------------------------------

        private List<CoreType> coreTypes(List<Integer> cpus, Map<Integer, Map<String, String>> byCpu,
                                         Map<Integer, ArmCoreId> armIds, String architecture,
                                         List<Instance> instances, Map<Integer, Set<Integer>> coreThreads) {
            Map<String, List<Integer>> cpusByType = new LinkedHashMap<>();
            Map<String, ArmCoreId> idByType = new HashMap<>();
            if (CpuInfo.AARCH64.equals(architecture) && !armIds.isEmpty()) {
                for (int cpu : cpus) {
                    ArmCoreId id = armIds.get(cpu);
                    String name = id == null ? "unknown" : id.name();
                    cpusByType.computeIfAbsent(name, k -> new ArrayList<>()).add(cpu);
                    if (id != null) {
                        idByType.put(name, id);
                    }
                }
            } else {
                List<Integer> performance = cpuListFile("sys/devices/cpu_core/cpus");
                List<Integer> efficient = cpuListFile("sys/devices/cpu_atom/cpus");
                String model = byCpu.values().stream().map(p -> p.get("model name")).filter(v -> v != null)
                        .findFirst().orElse(architecture + " core");
                for (int cpu : cpus) {
                    // Intel hybrid parts list their P- and E-cores under these PMU directories.
                    String name = performance.contains(cpu) && !efficient.isEmpty() ? "P-core"
                            : efficient.contains(cpu) ? "E-core" : model;
                    cpusByType.computeIfAbsent(name, k -> new ArrayList<>()).add(cpu);
                }
            }
            if (cpusByType.containsKey("unknown")) {
                warnings.add("core type unknown for cpus " + CpuList.format(cpusByType.get("unknown")));
            }
            List<CoreType> types = new ArrayList<>();
            for (Map.Entry<String, List<Integer>> e : cpusByType.entrySet()) {
                Set<Integer> typeCpus = new TreeSet<>(e.getValue());
                List<Cache> perCore = group(instances.stream()
                        .filter(i -> typeCpus.containsAll(i.cpus()) && withinOneCore(i, coreThreads)).toList());
                types.add(new CoreType(e.getKey(), Optional.ofNullable(idByType.get(e.getKey())), e.getValue(),
                        perCore, capacity(e.getValue())));
            }
            return types;
        }

        private List<Integer> cpuListFile(String path) {
            try {
                return files.readTrimmed(path).map(CpuList::parse).orElse(List.of());
            } catch (IllegalArgumentException e) {
                warnings.add(path + ": " + e.getMessage());
                return List.of();
            }
        }

        private static boolean withinOneCore(Instance instance, Map<Integer, Set<Integer>> coreThreads) {
            int first = instance.cpus().iterator().next();
            return coreThreads.getOrDefault(first, Set.of(first)).containsAll(instance.cpus());
        }

        /** The cpu_capacity shared by all these cpus, if the kernel reports one. */
        private OptionalInt capacity(List<Integer> cpus) {
            Set<Integer> values = new TreeSet<>();
            for (int cpu : cpus) {
                Optional<Integer> c = files.readTrimmed(CPU_DIR + "/cpu" + cpu + "/cpu_capacity")
                        .flatMap(HostDetector::parseInt);
                if (c.isEmpty()) {
                    return OptionalInt.empty();
                }
                values.add(c.get());
            }
            return values.size() == 1 ? OptionalInt.of(values.iterator().next()) : OptionalInt.empty();
        }

        private List<CpuCluster> clusters(List<Integer> cpus, List<Instance> instances,
                                          Map<Integer, Set<Integer>> coreThreads, Map<Integer, Integer> packages) {
            List<Set<Integer>> groups = sysfsClusters(cpus, coreThreads, packages);
            String basis = "sysfs cluster_id";
            if (groups.isEmpty()) {
                groups = lastLevelSharing(instances);
                basis = "shared last-level cache";
            }
            if (groups.isEmpty()) {
                groups = new ArrayList<>(new LinkedHashSet<>(packageGroups(cpus, packages).values()));
                basis = "package";
            }
            groups.sort(Comparator.comparing(g -> g.iterator().next()));
            List<CpuCluster> clusters = new ArrayList<>();
            for (Set<Integer> group : groups) {
                List<Cache> shared = group(instances.stream()
                        .filter(i -> group.containsAll(i.cpus()) && !withinOneCore(i, coreThreads)).toList());
                clusters.add(new CpuCluster(clusters.size(), List.copyOf(group), shared, basis));
            }
            return clusters;
        }

        /** Clusters from topology/cluster_id, when every cpu has a real id and some cluster spans cores. */
        private List<Set<Integer>> sysfsClusters(List<Integer> cpus, Map<Integer, Set<Integer>> coreThreads,
                                                 Map<Integer, Integer> packages) {
            Map<List<Long>, Set<Integer>> byId = new LinkedHashMap<>();
            for (int cpu : cpus) {
                Optional<Long> id = files.readTrimmed(CPU_DIR + "/cpu" + cpu + "/topology/cluster_id")
                        .flatMap(HostDetector::parseLong).filter(v -> !NO_CLUSTER.contains(v) && v >= 0);
                if (id.isEmpty()) {
                    return List.of();
                }
                byId.computeIfAbsent(List.of((long) packages.get(cpu), id.get()), k -> new TreeSet<>()).add(cpu);
            }
            boolean spansCores = byId.values().stream()
                    .anyMatch(g -> !coreThreads.getOrDefault(g.iterator().next(), Set.of()).containsAll(g));
            return spansCores ? new ArrayList<>(byId.values()) : List.of();
        }

        /** Groups of cpus sharing one instance of the last data level, when sysfs reports the sharing. */
        private static List<Set<Integer>> lastLevelSharing(List<Instance> instances) {
            List<Instance> sysfs = instances.stream().filter(i -> i.source().equals("sysfs") && i.type().holdsData())
                    .toList();
            int last = sysfs.stream().mapToInt(Instance::level).max().orElse(0);
            List<Set<Integer>> groups = new ArrayList<>();
            for (Instance i : sysfs) {
                if (i.level() == last && i.cpus().size() > 1) {
                    groups.add(new TreeSet<>(i.cpus()));
                }
            }
            return groups;
        }

        // ---- memory, vectors, settings -------------------------------------------------------------

        private long memoryBytes() {
            Optional<String> text = files.read(MEMINFO);
            if (text.isEmpty()) {
                warnings.add(MEMINFO + " could not be read: memory size unknown");
                return 0;
            }
            Matcher m = MEMTOTAL.matcher(text.get());
            if (!m.find()) {
                warnings.add(MEMINFO + " has no MemTotal line: memory size unknown");
                return 0;
            }
            Optional<Long> kib = parseLong(m.group(1)).filter(v -> v > 0 && v < Long.MAX_VALUE / 1024);
            if (kib.isEmpty() || !(m.group(2).equalsIgnoreCase("kB") || m.group(2).isEmpty())) {
                warnings.add(MEMINFO + " MemTotal must be a number of kB: MemTotal=" + m.group(1) + " " + m.group(2)
                        + "; memory size unknown");
                return 0;
            }
            return kib.get() * 1024L; // meminfo's "kB" is KiB
        }

        private int numaNodes() {
            int nodes = files.numbered(NODE_DIR, "node").size();
            if (nodes == 0) {
                warnings.add("no NUMA nodes under " + NODE_DIR + ": taken as one node");
                return 1;
            }
            return nodes;
        }

        private int vectorBitWidth(CpuInfo cpu) {
            if (cpu.isX86()) {
                if (cpu.hasFlag("avx512f")) {
                    return 512;
                }
                if (cpu.hasFlag("avx2")) {
                    return 256;
                }
                if (cpu.hasFlag("sse2")) {
                    return 128;
                }
            } else if (cpu.isArm()) {
                if (cpu.hasFlag("sve") || cpu.hasFlag("sve2")) {
                    Optional<String> text = files.readTrimmed(SVE_LENGTH);
                    Optional<Integer> bytes = text.flatMap(HostDetector::parseInt)
                            .filter(b -> b >= 16 && b <= 256 && b % 16 == 0);
                    if (bytes.isPresent() && Integer.bitCount(bytes.get()) == 1) {
                        return bytes.get() * 8;
                    }
                    warnings.add("SVE present but " + SVE_LENGTH + " must be a power-of-two byte count from 16 to "
                            + "256: sve_default_vector_length=" + text.orElse("absent") + "; using Advanced SIMD's 128 bits");
                    return 128;
                }
                if (!cpu.hasFlag("asimd")) {
                    warnings.add("no Advanced SIMD flag in " + CPUINFO + "; vectorBitWidth taken as 128, which "
                            + "every Armv8-A cpu has");
                }
                return 128;
            }
            warnings.add("no SIMD flags known for architecture " + cpu.architecture() + ": vectorBitWidth taken as 64");
            return 64;
        }

        private String transparentHugePages() {
            Optional<String> text = files.readTrimmed(THP);
            if (text.isEmpty()) {
                return "unknown";
            }
            Matcher m = Pattern.compile("\\[(\\w+)]").matcher(text.get());
            if (!m.find()) {
                warnings.add(THP + " must mark the mode in force as [mode]: enabled=" + text.get());
                return "unknown";
            }
            String mode = m.group(1);
            if (mode.equals("madvise")) {
                warnings.add("transparent huge pages are 'madvise': the JVM heap gets huge pages only when it runs "
                        + "with -XX:+UseTransparentHugePages");
            } else if (mode.equals("never")) {
                warnings.add("transparent huge pages are 'never': TLB misses may lower bandwidth on large arrays");
            }
            return mode;
        }

        private void governorWarnings(List<Integer> cpus) {
            Map<String, List<Integer>> byGovernor = new TreeMap<>();
            for (int cpu : cpus) {
                files.readTrimmed(CPU_DIR + "/cpu" + cpu + "/cpufreq/scaling_governor")
                        .ifPresent(g -> byGovernor.computeIfAbsent(g, k -> new ArrayList<>()).add(cpu));
            }
            byGovernor.forEach((governor, on) -> {
                if (!governor.equals("performance")) {
                    warnings.add("cpufreq governor is '" + governor + "' on cpus " + CpuList.format(on)
                            + ", not 'performance': clocks may ramp during short measurements");
                }
            });
        }

        private String hostname() {
            return files.readTrimmed("proc/sys/kernel/hostname").orElse(files.java().hostname());
        }

        private String os() {
            JavaFacts java = files.java();
            if (!java.osName().equals("unknown")) {
                return java.osName() + " " + java.osVersion();
            }
            return files.readTrimmed("proc/sys/kernel/osrelease").map(r -> "Linux " + r).orElse("unknown");
        }

        private String jdk() {
            JavaFacts java = files.java();
            return java.javaVersion() + " (" + java.javaVendor() + ")";
        }
    }

    /** Identical instances become one {@link Cache} each: same level, type, size and sharing width. */
    static List<Cache> group(List<Instance> instances) {
        Map<List<Object>, List<Instance>> groups = new LinkedHashMap<>();
        List<Instance> sorted = new ArrayList<>(instances);
        sorted.sort(Comparator.comparingInt(Instance::level).thenComparing(Instance::type)
                .thenComparing(i -> i.cpus().stream().min(Integer::compare).orElse(0)));
        for (Instance i : sorted) {
            groups.computeIfAbsent(List.of(i.level(), i.type(), i.sizeBytes(), i.cpus().size(), i.source()),
                    k -> new ArrayList<>()).add(i);
        }
        List<Cache> caches = new ArrayList<>();
        for (List<Instance> g : groups.values()) {
            List<Integer> cpus = g.stream().flatMap(i -> i.cpus().stream()).sorted().toList();
            Instance first = g.get(0);
            caches.add(new Cache(first.level(), first.type(), first.sizeBytes(), cpus, g.size(), first.source()));
        }
        return caches;
    }

    private static Optional<Long> parseSysfsSize(String text) {
        Matcher m = SYSFS_SIZE.matcher(text.trim());
        return m.matches() ? scaled(m.group(1), m.group(2)).filter(v -> v > 0) : Optional.empty();
    }

    /** sysfs and cpuinfo write {@code 2048K}, {@code 1024 KB}: binary multiples, whatever the letters. */
    private static Optional<Long> scaled(String digits, String unit) {
        Optional<Long> value = parseLong(digits);
        int shift = switch (unit.toUpperCase(Locale.ROOT)) {
            case "K" -> 10;
            case "M" -> 20;
            case "G" -> 30;
            default -> 0;
        };
        return value.filter(v -> v < (1L << (62 - shift))).map(v -> v << shift);
    }

    private static Optional<Integer> parseInt(String text) {
        try {
            return Optional.of(Integer.parseInt(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static Optional<Long> parseLong(String text) {
        try {
            return Optional.of(Long.parseLong(text.trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }
}
