package membound.validate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import membound.model.machine.Machine;
import membound.model.machine.Machines;
import membound.model.machine.Overrides;
import membound.profile.Nominal;
import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.Provenance;
import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.units.Units;

/**
 * The machine a validation predicts on, built from a calibrated profile twice: on its measured ceilings, and
 * on its nominal memory bandwidth (the datasheet basis) where one is known or the user gave one. The
 * workloads run on the CPU, so the CPU device of the profile is the one predicted, whatever else it holds.
 *
 * @param datasheet the machine with the nominal memory bandwidth, or null when none is known
 * @param datasheetBandwidth that bandwidth in bytes per second, or null
 * @param datasheetSource where it came from, or why there is none
 */
public record ValidationMachines(Path file, Profile profile, Machine measured, Machine datasheet,
        Double datasheetBandwidth, String datasheetSource, List<String> notes) {

    public ValidationMachines {
        notes = List.copyOf(notes);
    }

    /**
     * Reads the profile and builds both machines.
     *
     * @param nominalBandwidth {@code --nominal-bandwidth} as the user typed it (e.g. {@code 273GB/s}), or null
     * @param hostname this host's name: a profile of another host is used, with a note
     * @throws BadInputException for an unreadable profile, one without a CPU, or a malformed bandwidth
     */
    public static ValidationMachines of(Path file, String nominalBandwidth, String hostname) {
        Double given = nominalBandwidth == null ? null : Units.parseBandwidth("--nominal-bandwidth", nominalBandwidth);
        Profile profile = ProfileJson.read(file);
        String cpu = profile.devices().stream().filter(d -> d.kind() == DeviceKind.CPU).map(d -> d.id()).findFirst()
                .orElseThrow(() -> new BadInputException("profile must describe a cpu device (the workloads run on "
                        + "it): file=" + file + ", devices=" + profile.devices().stream().map(d -> d.id()).toList()));
        List<String> notes = new ArrayList<>();
        if (hostname != null && !hostname.equals(profile.host().hostname())) {
            notes.add("the profile was calibrated on " + profile.host().hostname() + ", not on this host (" + hostname
                    + "): predictions are for that machine");
        }
        Machine measured = Machines.fromProfile(profile, file.toString(), cpu, Overrides.NONE);
        Optional<Nominal.MemoryBandwidth> known = profile.nominal().memoryBandwidthOf(cpu);
        Machine datasheet = null;
        Double bandwidth = null;
        String source;
        if (given != null) {
            Profile withNominal = withNominalBandwidth(profile, cpu, given, "--nominal-bandwidth " + nominalBandwidth);
            datasheet = Machines.fromProfile(withNominal, file.toString(), cpu, Overrides.NONE);
            bandwidth = given;
            source = "--nominal-bandwidth " + nominalBandwidth;
        } else if (known.isPresent()) {
            datasheet = measured;
            bandwidth = known.get().bytesPerSecond();
            source = known.get().provenance() == null ? "profile nominal figure" : known.get().provenance().source();
        } else {
            String reason = profile.nominal().memoryBandwidth().stream()
                    .filter(m -> m.deviceIds().contains(cpu) && m.reason() != null).map(Nominal.MemoryBandwidth::reason)
                    .findFirst().orElse("the profile has no nominal memory bandwidth for " + cpu);
            source = "unknown: " + reason + (reason.contains("--nominal-bandwidth") ? ""
                    : "; give one with --nominal-bandwidth");
        }
        if (datasheet != null) {
            notes.add(String.format(Locale.ROOT, "datasheet-based: main memory at the nominal %s for every access "
                    + "pattern; caches and compute have no datasheet figure here, so those ceilings stay measured",
                    Units.formatBandwidth(bandwidth)));
        }
        return new ValidationMachines(file, profile, measured, datasheet, bandwidth, source, notes);
    }

    /**
     * Refuses, before anything runs, a profile that lacks a ceiling the chosen workloads are predicted from: a
     * validation against a figure the profile never measured would report the gap as the model's error.
     */
    public void requireCeilingsFor(List<ReferenceWorkload> workloads) {
        membound.profile.Device cpu = profile.device(measured.device().id()).orElseThrow();
        List<String> missing = workloads.stream().flatMap(w -> w.missingFrom(cpu).stream()).toList();
        if (!missing.isEmpty()) {
            throw new BadInputException("profile must have measured what the workloads are predicted from: "
                    + String.join(", ", missing) + " (file=" + file + "); run 'membound calibrate --quick' (about a "
                    + "minute) and validate again, or leave them out with --workloads");
        }
    }

    /** When the profile was made (UTC). */
    public String createdUtc() {
        return profile.provenance().createdUtc();
    }

    private static Profile withNominalBandwidth(Profile profile, String deviceId, double bytesPerSecond, String source) {
        List<Nominal.MemoryBandwidth> bandwidths = new ArrayList<>();
        for (Nominal.MemoryBandwidth m : profile.nominal().memoryBandwidth()) {
            if (!m.deviceIds().contains(deviceId)) {
                bandwidths.add(m);
            }
        }
        bandwidths.add(Nominal.MemoryBandwidth.known(List.of(deviceId), bytesPerSecond, Provenance.user(source)));
        Nominal nominal = new Nominal(profile.nominal().platformId(), profile.nominal().platformName(), bandwidths,
                profile.nominal().compute());
        return new Profile(profile.host(), nominal, profile.devices(), profile.links(), profile.efficiency(),
                profile.quality(), profile.provenance());
    }
}
