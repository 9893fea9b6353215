package membound.model.machine;

import java.util.Collections;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

import membound.vocabulary.BadInputException;

/**
 * Per-tenant bandwidth measured with 1, 2, ... K independent streams running at once
 * ({@code calibrate --tenants K}). The model divides a device's bandwidth among tenants with it;
 * without one it splits evenly and says so.
 */
public record TenantsCurve(SortedMap<Integer, Double> perTenantBytesPerSecond, String source) {

    public TenantsCurve {
        if (perTenantBytesPerSecond == null || !perTenantBytesPerSecond.containsKey(1)) {
            throw new BadInputException("tenants curve needs the single-tenant bandwidth (tenants=1)");
        }
        for (Map.Entry<Integer, Double> point : perTenantBytesPerSecond.entrySet()) {
            if (point.getKey() < 1 || !(point.getValue() > 0) || point.getValue().isInfinite()) {
                throw new BadInputException("tenants curve point must have tenants >= 1 and a positive bandwidth: "
                        + point.getKey() + "=" + point.getValue());
            }
        }
        if (source == null || source.isBlank()) {
            throw new BadInputException("tenants curve needs a source");
        }
        perTenantBytesPerSecond = Collections.unmodifiableSortedMap(new TreeMap<>(perTenantBytesPerSecond));
    }

    /**
     * The fraction of the single-tenant bandwidth one of {@code tenants} tenants gets. Beyond the
     * measured range the total of the largest measurement is split evenly: the memory system is
     * taken to be saturated there.
     */
    public double share(int tenants) {
        double single = perTenantBytesPerSecond.get(1);
        Double measured = perTenantBytesPerSecond.get(tenants);
        if (measured != null) {
            return measured / single;
        }
        int largest = perTenantBytesPerSecond.lastKey();
        if (tenants < largest) {
            // Between two measurements: interpolate the total linearly.
            int below = perTenantBytesPerSecond.headMap(tenants).lastKey();
            int above = perTenantBytesPerSecond.tailMap(tenants).firstKey();
            double totalBelow = perTenantBytesPerSecond.get(below) * below;
            double totalAbove = perTenantBytesPerSecond.get(above) * above;
            double total = totalBelow + (totalAbove - totalBelow) * (tenants - below) / (above - below);
            return total / tenants / single;
        }
        double saturatedTotal = perTenantBytesPerSecond.get(largest) * largest;
        return saturatedTotal / tenants / single;
    }
}
