package membound.model.machine;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import membound.hardware.catalog.Catalog;
import membound.hardware.catalog.DeviceSpec;
import membound.hardware.catalog.Figure;
import membound.hardware.catalog.LinkSpec;
import membound.hardware.catalog.PlatformSpec;
import membound.model.Defaults;
import membound.vocabulary.AccessPattern;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.Precision;

/**
 * The catalog adapter: a datasheet entry of the hardware catalog as the model's {@link Machine}, with the published
 * third-party measurements the model knows ({@link ThirdPartyFigures}) as its measured basis, and GEMMs at
 * {@link Defaults#GEMM_FRACTION_OF_PEAK} of the datasheet peak where nothing was measured.
 */
final class CatalogMachines {

    private CatalogMachines() {
    }

    static List<String> catalogIds() {
        return Catalog.builtIn().ids();
    }

    static Machine datasheet(String idOrAlias) {
        return datasheet(idOrAlias, Overrides.NONE);
    }

    /** A catalog entry by id or alias ({@code dgx-spark}, {@code spark}, {@code h100}); close matches on a miss. */
    static Machine datasheet(String idOrAlias, Overrides overrides) {
        PlatformSpec spec = Catalog.builtIn().require(idOrAlias);
        return fromCatalog(spec, overrides, idOrAlias);
    }

    static Machine fromCatalog(PlatformSpec spec, Overrides overrides, String asked) {
        ThirdPartyFigures.Known known = ThirdPartyFigures.of(spec.id());
        Optional<DeviceSpec> gpu = spec.gpu();
        DeviceSpec trainer = gpu.orElseGet(() -> spec.cpu().orElse(spec.devices().get(0)));
        List<String> names = List.of(spec.id(), asked == null ? spec.id() : asked);
        Map<Precision, Double> peakOverrides = overrides.peakFlops(names);
        Device device = catalogDevice(spec, trainer, known, peakOverrides);
        Device host = null;
        if (gpu.isPresent() && spec.cpu().isPresent()) {
            host = catalogDevice(spec, spec.cpu().get(), null, Map.of());
        }
        List<Link> links = new ArrayList<>();
        for (LinkSpec l : spec.links()) {
            links.add(new Link(l.id(), l.id() + " (" + l.kind().longName() + ")",
                    linkKind(l), Ceiling.datasheet(l.bytesPerSecondPerDirection().value(), l.bytesPerSecondPerDirection().source()),
                    0, "no latency figure in the catalog: taken as 0"));
        }
        List<String> notes = new ArrayList<>();
        if (known == null) {
            notes.add(spec.name() + ": no published measurements known to the model: the measured column repeats "
                    + "the datasheet figures (GEMMs at " + Defaults.GEMM_FRACTION_OF_PEAK + " of peak)");
        }
        String source = "datasheet catalog entry " + spec.id() + (known != null ? ", with third-party measurements" : "");
        Machine machine = new Machine(spec.id(), spec.name(), source, device, host, links, null, notes);
        // Peaks were applied while building the device (it may have had none); bandwidth now.
        Double bandwidth = overrides.memoryBandwidth(names);
        return bandwidth == null ? machine : machine.withMemoryBandwidth(bandwidth);
    }

    private static Device catalogDevice(PlatformSpec spec, DeviceSpec d, ThirdPartyFigures.Known known,
                                        Map<Precision, Double> peakOverrides) {
        boolean gpu = d.kind() == DeviceKind.GPU;
        long capacity = (long) d.memoryCapacityBytes().value();
        String capacitySource = d.memoryCapacityBytes().source();
        if (gpu && known != null && known.usableCapacityBytes() > 0) {
            capacity = known.usableCapacityBytes();
            capacitySource = known.capacitySource();
        }
        Figure nominal = d.memoryBandwidthBytesPerSecond();
        Map<AccessPattern, Ceiling> bandwidth = new EnumMap<>(AccessPattern.class);
        for (AccessPattern pattern : AccessPattern.values()) {
            Ceiling c = Ceiling.datasheet(nominal.value(), nominal.source());
            if (gpu && known != null && !Double.isNaN(known.readBytesPerSecond())) {
                c = c.withMeasured(known.readBytesPerSecond(), pattern == AccessPattern.READ ? known.readSource()
                        : known.readSource() + "; no " + pattern.name().toLowerCase(Locale.ROOT)
                        + " measurement: the read figure stands in");
            }
            bandwidth.put(pattern, c);
        }
        Map<Precision, ComputeCeiling> compute = new EnumMap<>(Precision.class);
        for (Precision p : Precision.TRAINING) {
            Optional<Figure> dense = d.densePeak(p);
            Optional<Figure> sparse = d.sparsePeak(p);
            Double derived = known == null ? null : known.derivedPeakFlopsPerSecond().get(p);
            Double measured = known == null || !gpu ? null : known.gemmFlopsPerSecond().get(p);
            Ceiling peak = null;
            if (dense.isPresent()) {
                peak = Ceiling.datasheet(dense.get().value(), dense.get().source());
            } else if (derived != null) {
                peak = Ceiling.datasheet(derived, known.derivedSource());
            }
            Ceiling attainable = null;
            if (peak != null) {
                attainable = Ceiling.datasheet(peak.datasheet() * Defaults.GEMM_FRACTION_OF_PEAK,
                        Defaults.GEMM_FRACTION_SOURCE + " (" + peak.datasheetSource() + ")");
            }
            if (measured != null) {
                attainable = attainable == null ? Ceiling.measured(measured, known.gemmSource())
                        : attainable.withMeasured(measured, known.gemmSource());
                if (peak == null) {
                    peak = Ceiling.measured(measured, known.gemmSource() + "; no datasheet peak: the measured GEMM rate stands in");
                }
            }
            if (peak == null) {
                continue;
            }
            Ceiling sparseCeiling = sparse.map(f -> Ceiling.datasheet(f.value(), f.source())).orElse(null);
            compute.put(p, new ComputeCeiling(p, peak, attainable, sparseCeiling));
        }
        Machines.applyPeakOverrides(compute, peakOverrides);
        Ceiling vector = d.densePeak(Precision.FP32)
                .map(f -> Ceiling.datasheet(f.value(), f.source() + "; FP32 outside the tensor cores")).orElse(null);
        MemoryTier main = new MemoryTier("main memory", capacity, bandwidth);
        return new Device(spec.id() + "/" + d.id(), d.name(), gpu ? DeviceKind.GPU : DeviceKind.CPU, capacity,
                capacitySource, d.unifiedMemory(), List.of(main), compute, vector);
    }

    /** What a catalog link carries for the model. */
    static Link.Kind linkKind(LinkSpec l) {
        return Link.Kind.of(l.kind(), l.from().equals(l.to()));
    }
}
