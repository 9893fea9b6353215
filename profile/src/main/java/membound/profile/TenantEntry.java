package membound.profile;

import membound.vocabulary.MemoryLevel;

/**
 * Bandwidth when {@code tenants} independent processes stream at once, as users sharing a machine do.
 *
 * @param tenants                  concurrent processes
 * @param kernel                   the kernel each ran
 * @param elementType              "double", ...
 * @param threadsPerTenant         threads in each process, if known
 * @param level                    the memory level
 * @param perTenantBytesPerSecond  what one tenant got (over tenants and runs)
 * @param totalBytesPerSecond      what all tenants got together
 * @param provenance               how it was measured
 */
public record TenantEntry(int tenants, String kernel, String elementType, Integer threadsPerTenant,
                          MemoryLevel level, Distribution perTenantBytesPerSecond,
                          Distribution totalBytesPerSecond, Provenance provenance) {

    public TenantEntry {
        Checks.positive("tenants.tenants", tenants);
        Checks.id("tenants.kernel", kernel);
        Checks.text("tenants.elementType", elementType);
        Checks.optionalPositive("tenants.threadsPerTenant", threadsPerTenant);
        Checks.present("tenants.level", level);
        Checks.present("tenants.perTenantBytesPerSecond", perTenantBytesPerSecond);
        Checks.present("tenants.totalBytesPerSecond", totalBytesPerSecond);
        Checks.present("tenants.provenance", provenance);
    }
}
