package membound.hardware.host;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import membound.vocabulary.BadInputException;

/**
 * Where the online cpus sit: each cpu's package, and the hardware threads of its core (itself alone when
 * nothing says otherwise).
 */
record Topology(List<Integer> cpus, Map<Integer, Integer> packages, Map<Integer, Set<Integer>> coreThreads) {

    Topology {
        cpus = List.copyOf(cpus);
        for (int cpu : cpus) {
            if (!packages.containsKey(cpu) || !coreThreads.containsKey(cpu)) {
                throw new BadInputException("packages and coreThreads must cover every online cpu: cpu=" + cpu
                        + ", packages=" + packages.keySet() + ", coreThreads=" + coreThreads.keySet());
            }
        }
        packages = Collections.unmodifiableMap(new TreeMap<>(packages));
        Map<Integer, Set<Integer>> threads = new TreeMap<>();
        coreThreads.forEach((cpu, set) -> threads.put(cpu, Collections.unmodifiableSet(new TreeSet<>(set))));
        coreThreads = Collections.unmodifiableMap(threads);
    }

    /** For each cpu, all the cpus of its package. */
    Map<Integer, Set<Integer>> packageGroups() {
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

    /** Whether a cache instance serves the threads of one core only. */
    boolean withinOneCore(CacheInstance instance) {
        int first = instance.cpus().iterator().next();
        return coreThreads.getOrDefault(first, Set.of(first)).containsAll(instance.cpus());
    }
}
