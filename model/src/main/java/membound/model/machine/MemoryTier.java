package membound.model.machine;

import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;

import membound.vocabulary.AccessPattern;
import membound.vocabulary.BadInputException;

/**
 * One level of a device's memory (L2, last-level cache, DRAM/HBM) with its capacity and a
 * bandwidth ceiling per access pattern. An operation whose working set fits a tier runs at that
 * tier's bandwidth; a device's last tier is its main memory.
 */
public record MemoryTier(String name, long capacityBytes, Map<AccessPattern, Ceiling> bandwidth) {

    public MemoryTier {
        if (name == null || name.isBlank()) {
            throw new BadInputException("memory tier needs a name");
        }
        if (capacityBytes <= 0) {
            throw new BadInputException("capacityBytes must be positive: capacityBytes=" + capacityBytes);
        }
        if (bandwidth == null || bandwidth.isEmpty()) {
            throw new BadInputException("memory tier " + name + " needs at least one bandwidth ceiling");
        }
        Map<AccessPattern, Ceiling> copy = new EnumMap<>(AccessPattern.class);
        copy.putAll(bandwidth);
        bandwidth = Collections.unmodifiableMap(copy);
    }

    /** One ceiling for every access pattern, as a datasheet gives it. */
    public static MemoryTier uniform(String name, long capacityBytes, Ceiling ceiling) {
        Map<AccessPattern, Ceiling> all = new EnumMap<>(AccessPattern.class);
        for (AccessPattern pattern : AccessPattern.values()) {
            all.put(pattern, ceiling);
        }
        return new MemoryTier(name, capacityBytes, all);
    }

    /**
     * The ceiling for {@code pattern}, or for the nearest pattern this tier has. A profile's tiers have every pattern,
     * as the calibrator completed them (a pattern nothing measured takes the nearest measured one, and says so), a
     * datasheet's one figure for all; the nearest pattern serves tiers built by hand (what-ifs, tests).
     */
    public Ceiling ceiling(AccessPattern pattern) {
        Ceiling exact = bandwidth.get(pattern);
        if (exact != null) {
            return exact;
        }
        for (AccessPattern fallback : pattern.fallbacks()) {
            Ceiling near = bandwidth.get(fallback);
            if (near != null) {
                return near;
            }
        }
        throw new IllegalStateException("unreachable: tier " + name + " has no ceiling");
    }

    /** Every ceiling of the tier times {@code factor}. */
    public MemoryTier scaled(double factor, String why) {
        Map<AccessPattern, Ceiling> scaled = new EnumMap<>(AccessPattern.class);
        bandwidth.forEach((pattern, c) -> scaled.put(pattern, c.scaled(factor, why)));
        return withBandwidth(scaled);
    }

    public MemoryTier withBandwidth(Map<AccessPattern, Ceiling> replaced) {
        return new MemoryTier(name, capacityBytes, replaced);
    }
}
