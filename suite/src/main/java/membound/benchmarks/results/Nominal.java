package membound.benchmarks.results;

import java.util.Optional;

import membound.hardware.catalog.Catalog;
import membound.hardware.catalog.PlatformSpec;
import membound.hardware.host.Host;
import membound.vocabulary.units.Units;

/**
 * The host's nominal (datasheet) memory bandwidth and where it comes from, or why it is unknown.
 *
 * @param bytesPerSecond the figure, or empty when unknown
 * @param source the datasheet or flag it comes from, or the reason it is unknown
 */
public record Nominal(Optional<Double> bytesPerSecond, String source) {

    /** From a user's override (e.g. {@code 273GB/s}) if given, else from the catalog entry matching the host. */
    public static Nominal of(Host host, String override) {
        if (override != null && !override.isBlank()) {
            return new Nominal(Optional.of(Units.parseBandwidth("nominalBandwidth", override)),
                    "given with -Dmembound.nominalBandwidth=" + override.trim());
        }
        Optional<PlatformSpec> platform = Catalog.builtIn().match(host);
        if (platform.isEmpty()) {
            return new Nominal(Optional.empty(), "unknown: no catalog entry matches this host ("
                    + host.cpu().modelName() + "); give one with -Dmembound.nominalBandwidth=273GB/s");
        }
        return platform.get().nominalHostMemoryBandwidth()
                .map(figure -> new Nominal(Optional.of(figure.value()), platform.get().name() + ": " + figure.source()))
                .orElseGet(() -> new Nominal(Optional.empty(), "unknown: the catalog entry for "
                        + platform.get().name() + " has no memory bandwidth"));
    }

    /** measured / nominal, or empty when the nominal figure is unknown. */
    public Optional<Double> ratio(double measuredBytesPerSecond) {
        return bytesPerSecond.map(nominal -> measuredBytesPerSecond / nominal);
    }
}
