package membound.hardware.host;

import java.util.List;

import membound.vocabulary.BadInputException;
import membound.vocabulary.units.Units;

/**
 * {@code instances} identical caches of {@code sizeBytes} each at one level, serving {@code sharedCpus}
 * together: each instance is shared by {@link #cpusPerInstance()} of those cpus. A private L2 on ten
 * cores is one {@code Cache} with ten cpus and ten instances; a cluster's L3 has one instance.
 *
 * @param source where the size came from: {@code "sysfs"}, {@code "getconf"} or {@code "cpuinfo"}
 */
public record Cache(int level, CacheType type, long sizeBytes, List<Integer> sharedCpus, int instances, String source) {

    public Cache {
        if (level < 1) {
            throw new BadInputException("level must be at least 1: level=" + level);
        }
        if (type == null) {
            throw new BadInputException("type must be given: type=null");
        }
        if (sizeBytes <= 0) {
            throw new BadInputException("sizeBytes must be positive: sizeBytes=" + sizeBytes);
        }
        sharedCpus = List.copyOf(sharedCpus);
        if (instances < 1 || sharedCpus.size() < instances || sharedCpus.size() % instances != 0) {
            throw new BadInputException("instances must be at least 1 and divide the cpus evenly: instances="
                    + instances + ", sharedCpus=" + sharedCpus);
        }
        if (source == null || source.isBlank()) {
            throw new BadInputException("source must name where the size came from: source=" + source);
        }
    }

    /** How many cpus share one instance. */
    public int cpusPerInstance() {
        return sharedCpus.size() / instances;
    }

    /** The size all instances add up to. */
    public long totalBytes() {
        return sizeBytes * instances;
    }

    /** The share of one cpu: the size of an instance over the cpus sharing it. */
    public long bytesPerCpu() {
        return sizeBytes / cpusPerInstance();
    }

    /** {@code L2 unified 2.00 MiB x10 (1 cpu each, sysfs)}. */
    @Override
    public String toString() {
        return "L" + level + " " + type.name().toLowerCase(java.util.Locale.ROOT) + " " + Units.formatBytes(sizeBytes)
                + " x" + instances + " (" + cpusPerInstance() + " cpu" + (cpusPerInstance() == 1 ? "" : "s")
                + " each, " + source + ")";
    }
}
