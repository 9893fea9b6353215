package membound.export;

import java.nio.file.Path;

import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.profile.Device;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.vocabulary.BadInputException;

/**
 * What an export reads: the machine as the model resolves it (the ceilings a prediction would use, measured and
 * datasheet side by side, each with its source) and, for a profile, the profile itself, whose entries across sizes
 * (GEMM shapes, working sets, message sizes) fill the tools' efficiency tables.
 *
 * @param machine      the resolved machine
 * @param profile      the profile, or null for a catalog entry
 * @param device       the profile's device the machine trains on, or null for a catalog entry
 * @param origin       the profile's file or the catalog id, as sources name it
 * @param measuredOnly refuse a figure the profile did not measure instead of writing the datasheet's
 * @param platform     the catalog entry of the profile's platform, or null: its datasheet links stand in for links
 *                     the profile never measured
 */
public record ExportInput(Machine machine, Profile profile, Device device, String origin, boolean measuredOnly,
                          Machine platform) {

    public ExportInput {
        if (machine == null || origin == null) {
            throw new BadInputException("an export needs a machine and where it came from");
        }
        if (measuredOnly && profile == null) {
            throw new BadInputException("--measured-only needs --profile: a catalog entry holds datasheet figures only: "
                    + "hardware=" + origin);
        }
    }

    /** The profile in {@code file} on {@code deviceId} (null: its GPU if it measured one, else its CPU). */
    public static ExportInput profile(Path file, String deviceId, boolean measuredOnly) {
        return profile(file, file.toString(), deviceId, measuredOnly);
    }

    /** As {@link #profile(Path, String, boolean)}, with {@code origin} naming the file in sources and errors. */
    public static ExportInput profile(Path file, String origin, String deviceId, boolean measuredOnly) {
        Profile profile = ProfileJson.read(file);
        Machine machine = Machines.fromProfile(profile, origin, deviceId, Overrides.NONE);
        Device device = profile.device(machine.device().id()).orElseThrow();
        Machine platform = null;
        String platformId = profile.nominal().platformId();
        if (platformId != null && Machines.catalogIds().contains(platformId)) {
            platform = Machines.datasheet(platformId);
        }
        return new ExportInput(machine, profile, device, origin, measuredOnly, platform);
    }

    /** A catalog entry by id or alias; its datasheet figures. */
    public static ExportInput catalog(String idOrAlias) {
        Machine machine = Machines.datasheet(idOrAlias);
        return new ExportInput(machine, null, null, "catalog entry " + machine.id(), false, null);
    }

    public boolean fromProfile() {
        return profile != null;
    }
}
