package membound.model.machine;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import membound.profile.Profile;
import membound.vocabulary.Precision;

/**
 * The model's {@link Machine}s from the two places figures come from: a datasheet entry of the hardware catalog
 * ({@link CatalogMachines}) and a calibrated profile ({@link ProfileMachines}). The roofline never sees either format.
 */
public final class Machines {

    private Machines() {
    }

    /**
     * A catalog machine's published launch cost of one CUDA-graph kernel (a third-party measurement with its source), or
     * null where none is published or the machine is a profile's (whose GPU suite measures its own launch interval).
     */
    public static Ceiling publishedGraphLaunch(Machine machine) {
        return ThirdPartyFigures.graphLaunch(machine.id());
    }

    /** The catalog's ids. */
    public static List<String> catalogIds() {
        return CatalogMachines.catalogIds();
    }

    public static Machine datasheet(String idOrAlias) {
        return CatalogMachines.datasheet(idOrAlias);
    }

    /** A catalog entry by id or alias ({@code dgx-spark}, {@code spark}, {@code h100}); close matches on a miss. */
    public static Machine datasheet(String idOrAlias, Overrides overrides) {
        return CatalogMachines.datasheet(idOrAlias, overrides);
    }

    /** The profile in {@code file}, on {@code deviceId} (null: its GPU if it measured one, else its CPU). */
    public static Machine profile(Path file, String deviceId, Overrides overrides) {
        return ProfileMachines.profile(file, deviceId, overrides);
    }

    /**
     * @param origin the file the profile came from, for sources and errors
     * @param deviceId the device to train on, or null for the GPU if there is one, else the CPU
     */
    public static Machine fromProfile(Profile profile, String origin, String deviceId, Overrides overrides) {
        return ProfileMachines.fromProfile(profile, origin, deviceId, overrides);
    }

    /** What-if peaks (--peak-flops) replace or give a precision's compute ceiling. */
    static void applyPeakOverrides(Map<Precision, ComputeCeiling> compute, Map<Precision, Double> overrides) {
        for (Map.Entry<Precision, Double> o : overrides.entrySet()) {
            compute.put(o.getKey(), ComputeCeiling.whatIf(compute.get(o.getKey()), o.getKey(), o.getValue()));
        }
    }
}
