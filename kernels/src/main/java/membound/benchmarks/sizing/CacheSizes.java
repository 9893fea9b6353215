package membound.benchmarks.sizing;

import java.util.Map;
import java.util.OptionalLong;
import java.util.TreeMap;

import membound.hardware.host.Host;
import membound.hardware.host.HostDetector;
import membound.vocabulary.BadInputException;

/**
 * The cache sizes that working sets are derived from: each data cache level's share of one core, and the
 * total of all last-level caches (STREAM's rule: every array at least 4× that for a DRAM figure).
 *
 * @param perCoreBytes per level (1, 2, 3, ...) the bytes one core may use: size / cpus sharing it
 * @param lastLevelTotalBytes the sum over every last-level cache instance in the machine
 * @param source where the sizes came from (sysfs, getconf, ...), for the output
 */
public record CacheSizes(Map<Integer, Long> perCoreBytes, long lastLevelTotalBytes, String source) {

    public CacheSizes {
        perCoreBytes = Map.copyOf(new TreeMap<>(perCoreBytes));
        if (lastLevelTotalBytes <= 0) {
            throw new BadInputException("lastLevelTotalBytes must be positive: lastLevelTotalBytes="
                    + lastLevelTotalBytes);
        }
        perCoreBytes.forEach((level, bytes) -> {
            if (bytes <= 0) {
                throw new BadInputException("cache size must be positive: L" + level + "=" + bytes);
            }
        });
    }

    /** The caches of the running host. */
    public static CacheSizes detect() {
        return of(HostDetector.detect());
    }

    /**
     * The caches {@code host} reports.
     *
     * @throws BadInputException if the host reports no cache at all: working sets cannot be derived then,
     *         and a guess would make every DRAM figure suspect; give explicit sizes instead
     */
    public static CacheSizes of(Host host) {
        Map<Integer, Long> perCore = new TreeMap<>();
        for (int level : host.dataCacheLevels()) {
            host.cacheBytesPerCore(level).ifPresent(bytes -> perCore.put(level, bytes));
        }
        long lastLevel = host.lastLevelCacheTotalBytes();
        if (perCore.isEmpty() || lastLevel <= 0) {
            throw new BadInputException("workingSet must be an explicit size such as 2GiB on this host: it reports "
                    + "no cache sizes (no sysfs, getconf or cpuinfo figure): host=" + host.hostname());
        }
        String sources = host.caches().stream().map(cache -> cache.source()).distinct().sorted()
                .reduce((x, y) -> x + ", " + y).orElse("unknown");
        return new CacheSizes(perCore, lastLevel, sources);
    }

    /**
     * The caches as seen from {@code cpus} (one core type, one cluster): each level's share of one of those
     * cpus, the smallest among them. The last-level total stays the whole machine's: STREAM's DRAM rule is
     * about what no cache of the machine can hold, whichever cores stream.
     *
     * @throws BadInputException as {@link #of(Host)}
     */
    public static CacheSizes of(Host host, java.util.Collection<Integer> cpus) {
        CacheSizes whole = of(host);
        // Levels whose instances name no cpus (getconf, cpuinfo) keep the whole machine's share.
        Map<Integer, Long> perCore = new TreeMap<>(whole.perCoreBytes());
        for (int level : host.dataCacheLevels()) {
            cpus.stream().map(cpu -> host.cacheBytesPerCore(level, cpu)).filter(OptionalLong::isPresent)
                    .mapToLong(OptionalLong::getAsLong).min().ifPresent(bytes -> perCore.put(level, bytes));
        }
        return new CacheSizes(perCore, whole.lastLevelTotalBytes(), whole.source());
    }

    /** One core's share of cache level {@code level}, if the host has that level. */
    public OptionalLong perCore(int level) {
        Long bytes = perCoreBytes.get(level);
        return bytes == null ? OptionalLong.empty() : OptionalLong.of(bytes);
    }

    /** The highest cache level the host reports. */
    public int lastLevel() {
        return perCoreBytes.keySet().stream().mapToInt(Integer::intValue).max().orElse(0);
    }
}
