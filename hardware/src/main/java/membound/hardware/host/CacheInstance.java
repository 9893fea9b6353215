package membound.hardware.host;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import membound.vocabulary.BadInputException;

/** One cache instance as a source reports it: a level, a type, a size, the cpus sharing it, and the source. */
record CacheInstance(int level, CacheType type, long sizeBytes, Set<Integer> cpus, String source) {

    CacheInstance {
        cpus = Set.copyOf(cpus);
        if (cpus.isEmpty()) {
            throw new BadInputException("cpus must not be empty: cpus=" + cpus + ", level=" + level);
        }
    }

    /** Identical instances become one {@link Cache} each: same level, type, size, sharing width and source. */
    static List<Cache> group(List<CacheInstance> instances) {
        Map<List<Object>, List<CacheInstance>> groups = new LinkedHashMap<>();
        List<CacheInstance> sorted = new ArrayList<>(instances);
        sorted.sort(Comparator.comparingInt(CacheInstance::level).thenComparing(CacheInstance::type)
                .thenComparing(i -> i.cpus().stream().min(Integer::compare).orElse(0)));
        for (CacheInstance i : sorted) {
            groups.computeIfAbsent(List.of(i.level(), i.type(), i.sizeBytes(), i.cpus().size(), i.source()),
                    k -> new ArrayList<>()).add(i);
        }
        List<Cache> caches = new ArrayList<>();
        for (List<CacheInstance> g : groups.values()) {
            List<Integer> cpus = g.stream().flatMap(i -> i.cpus().stream()).sorted().toList();
            CacheInstance first = g.get(0);
            caches.add(new Cache(first.level(), first.type(), first.sizeBytes(), cpus, g.size(), first.source()));
        }
        return caches;
    }
}
