package membound.hardware.host;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

import membound.vocabulary.BadInputException;

/**
 * Cores of one kind: a DGX Spark has two (Cortex-X925 and Cortex-A725), most x86 servers one.
 *
 * @param armId    implementer and part on Arm; empty on x86
 * @param cpus     the logical cpus of this type
 * @param caches   the caches private to each core of this type (L1, and L2 where it is per core)
 * @param capacity sysfs {@code cpu_capacity} (1024 for the fastest type) where the kernel reports it
 */
public record CoreType(String name, Optional<ArmCoreId> armId, List<Integer> cpus, List<Cache> caches,
                       OptionalInt capacity) {

    public CoreType {
        name = CpuInfo.requireText("name", name);
        cpus = List.copyOf(cpus);
        caches = List.copyOf(caches);
        if (cpus.isEmpty()) {
            throw new BadInputException("cpus must not be empty: cpus=" + cpus + ", name=" + name);
        }
    }

    /** The private cache of one core at this level that holds data, if known. */
    public Optional<Cache> dataCache(int level) {
        return caches.stream().filter(c -> c.level() == level && c.type().holdsData()).findFirst();
    }
}
