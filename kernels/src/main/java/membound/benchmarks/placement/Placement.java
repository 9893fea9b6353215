package membound.benchmarks.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

import membound.hardware.host.CoreType;
import membound.hardware.host.CpuCluster;
import membound.hardware.host.CpuList;
import membound.hardware.host.Host;
import membound.vocabulary.BadInputException;

/**
 * The cpus a benchmark fork runs on: every cpu ({@code all}), the cores of one type ({@code Cortex-X925}) or
 * one cluster ({@code cluster1}). A placement other than {@code all} confines the whole fork (its team, the
 * JIT and the garbage collector) to its cpus with {@code taskset} ({@link CpuSetProfiler}); {@code pinned}
 * also binds each team thread to one cpu of it ({@link CpuBinding}).
 *
 * @param name   {@code all}, a core type's name, or {@code cluster<id>}: what a profile's {@code placement} says
 * @param kind   which of the three it is
 * @param cpus   the logical cpus, ascending
 * @param pinned each team thread is bound to one cpu: thread {@code i} to {@code cpus[i % cpus.size()]}
 */
public record Placement(String name, Kind kind, List<Integer> cpus, boolean pinned) {

    /** The placement every measurement had before there were others, and the one ceilings come from. */
    public static final String ALL = "all";

    /** What a placement selects. */
    public enum Kind {
        /** Every online cpu; the fork is not confined. */
        ALL,
        /** The cpus of one core type. */
        CORE_TYPE,
        /** The cpus of one cluster (cpus that share a last-level cache or a sysfs cluster id). */
        CLUSTER
    }

    public Placement {
        if (name == null || name.isBlank() || !name.strip().equals(name) || name.contains(",")) {
            throw new BadInputException("name must be a word without commas: name=\"" + name + "\"");
        }
        if (kind == null) {
            throw new BadInputException("kind must be given: kind=null, name=" + name);
        }
        cpus = List.copyOf(cpus.stream().sorted().distinct().toList());
        if (cpus.isEmpty() || cpus.get(0) < 0) {
            throw new BadInputException("cpus must be a non-empty list of cpu numbers: cpus=" + cpus
                    + ", name=" + name);
        }
        if ((kind == Kind.ALL) != name.equals(ALL)) {
            throw new BadInputException("name must be " + ALL + " exactly for kind ALL: name=" + name
                    + ", kind=" + kind);
        }
    }

    /** Every online cpu of {@code host}. */
    public static Placement all(Host host, boolean pinned) {
        return new Placement(ALL, Kind.ALL, allCpus(host), pinned);
    }

    /** The cores of one type. */
    public static Placement of(CoreType type, boolean pinned) {
        return new Placement(type.name(), Kind.CORE_TYPE, type.cpus(), pinned);
    }

    /** The cpus of one cluster, named {@code cluster<id>}. */
    public static Placement of(CpuCluster cluster, boolean pinned) {
        return new Placement("cluster" + cluster.id(), Kind.CLUSTER, cluster.cpus(), pinned);
    }

    /**
     * What a calibration measures on {@code host}: each core type on its own, fastest first, and then all cpus
     * together where there are several types (a DGX Spark: Cortex-X925, Cortex-A725, all); only {@code all} where
     * there is one.
     */
    public static List<Placement> perCoreType(Host host, boolean pinned) {
        List<Placement> placements = new ArrayList<>();
        if (host.heterogeneous()) {
            fastestFirst(host).forEach(type -> placements.add(of(type, pinned)));
        }
        placements.add(all(host, pinned));
        return placements;
    }

    /** The clusters of {@code host} as placements, where it has more than one. */
    public static List<Placement> perCluster(Host host, boolean pinned) {
        return host.clusters().size() < 2 ? List.of()
                : host.clusters().stream().map(cluster -> of(cluster, pinned)).toList();
    }

    /**
     * Resolves a name on {@code host}: {@code all}; a core type, ignoring case, whole or by the end of its name
     * ({@code x925} is {@code Cortex-X925}); or {@code cluster<id>}.
     *
     * @throws BadInputException naming the placements this host has
     */
    public static Placement resolve(String spec, Host host, boolean pinned) {
        String text = spec == null ? "" : spec.trim();
        String lower = text.toLowerCase(Locale.ROOT);
        if (lower.equals(ALL)) {
            return all(host, pinned);
        }
        List<CoreType> types = host.coreTypes().stream()
                .filter(t -> t.name().equalsIgnoreCase(text)).toList();
        if (types.isEmpty() && !lower.isEmpty()) {
            types = host.coreTypes().stream()
                    .filter(t -> t.name().toLowerCase(Locale.ROOT).endsWith(lower)).toList();
        }
        if (types.size() == 1) {
            return of(types.get(0), pinned);
        }
        for (CpuCluster cluster : host.clusters()) {
            if (lower.equals("cluster" + cluster.id())) {
                return of(cluster, pinned);
            }
        }
        throw new BadInputException("placement must be " + String.join(", ", known(host)) + ": placement=" + spec);
    }

    /** The placement names {@code host} offers, for messages. */
    public static List<String> known(Host host) {
        List<String> names = new ArrayList<>(List.of(ALL));
        fastestFirst(host).forEach(type -> names.add(type.name()));
        host.clusters().forEach(cluster -> names.add("cluster" + cluster.id()));
        return names;
    }

    /**
     * True if the fork must be confined to {@link #cpus}: every placement but {@code all}, whose cpus are the
     * whole machine anyway.
     */
    public boolean confinesFork() {
        return kind != Kind.ALL;
    }

    /** The cpus as the kernel and {@code taskset} write them: {@code 5-9,15-19}. */
    public String cpuList() {
        return CpuList.format(cpus);
    }

    /** The cpu team thread {@code thread} is bound to when pinned. */
    public int cpuOfThread(int thread) {
        if (thread < 0) {
            throw new BadInputException("thread must not be negative: thread=" + thread);
        }
        return cpus.get(thread % cpus.size());
    }

    /** {@code Cortex-X925 (cpus 5-9,15-19, pinned)}, for plans and progress lines. */
    public String describe() {
        return name + " (cpus " + cpuList() + (pinned ? ", one thread per cpu" : "") + ")";
    }

    /** The same cpus, pinned or not. */
    public Placement withPinned(boolean pin) {
        return new Placement(name, kind, cpus, pin);
    }

    /** Core types by the kernel's {@code cpu_capacity}, highest first (X925 before A725), else as detected. */
    static List<CoreType> fastestFirst(Host host) {
        return host.coreTypes().stream().sorted(java.util.Comparator.comparingInt(
                (CoreType type) -> -type.capacity().orElse(0))).toList();
    }

    private static List<Integer> allCpus(Host host) {
        List<Integer> cpus = host.coreTypes().stream().flatMap(t -> t.cpus().stream()).sorted().distinct().toList();
        // Core types cover every online cpu where they are known; otherwise number the cpus the host counted.
        return cpus.size() == host.logicalCpus() ? cpus : IntStream.range(0, host.logicalCpus()).boxed().toList();
    }
}
