package membound.profile;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * A hardware profile: what a machine delivers, what its datasheet promised, and where every figure
 * came from. The contract between the calibrator (which writes it) and the model (which reads it);
 * {@link ProfileJson} reads and writes it, {@code docs/profile-schema.md} documents the JSON.
 *
 * @param host       the machine
 * @param nominal    datasheet figures, or "unknown" with a reason
 * @param devices    the devices and their measurements
 * @param links      connections between devices or machines
 * @param efficiency measured over nominal
 * @param quality    flags a reader must see before trusting the figures
 * @param provenance how the profile was made
 */
@JsonPropertyOrder({"schema", "schemaVersion", "host", "nominal", "devices", "links", "efficiency", "quality",
        "provenance"})
@JsonIgnoreProperties(value = {"schema", "schemaVersion"}, allowGetters = true)
public record Profile(
        Host host,
        Nominal nominal,
        List<Device> devices,
        List<Link> links,
        Efficiency efficiency,
        Quality quality,
        RunProvenance provenance) {

    /** The value of the top-level {@code "schema"} key. */
    public static final String SCHEMA = "membound-profile";

    /**
     * The schema version this code writes. Version 4 says on a CPU whether its stores allocate, which its
     * hardware-byte figures assume ({@link WriteAllocation}); version 3 stores every ceiling the model reads, typed;
     * version 2 keeps one DRAM (or cache) ceiling per access pattern, as the calibrator chose it, with the in-place
     * update's beside the copy's. Older profiles are read and migrated ({@link ProfileMigration}).
     */
    public static final int SCHEMA_VERSION = 4;

    public Profile {
        Checks.present("host", host);
        Checks.present("nominal", nominal);
        devices = Checks.list("devices", devices);
        links = Checks.list("links", links);
        Checks.present("efficiency", efficiency);
        Checks.present("quality", quality);
        Checks.present("provenance", provenance);
        Checks.unique("devices.id", devices, Device::id);
        Checks.unique("links.id", links, Link::id);
        Set<String> ids = new HashSet<>();
        devices.forEach(d -> ids.add(d.id()));
        for (Device device : devices) {
            for (String other : device.unifiedMemoryWith()) {
                if (!ids.contains(other)) {
                    throw Checks.bad("devices.unifiedMemoryWith", "the id of a device in this profile", other);
                }
            }
        }
        for (Link link : links) {
            if (!ids.contains(link.from())) {
                throw Checks.bad("links.from", "the id of a device in this profile", link.from());
            }
        }
    }

    @JsonProperty("schema")
    public String schema() {
        return SCHEMA;
    }

    @JsonProperty("schemaVersion")
    public int schemaVersion() {
        return SCHEMA_VERSION;
    }

    /** The device with this id. */
    public Optional<Device> device(String id) {
        return devices.stream().filter(d -> d.id().equals(id)).findFirst();
    }

    /** The link with this id. */
    public Optional<Link> link(String id) {
        return links.stream().filter(l -> l.id().equals(id)).findFirst();
    }

    /** This profile with {@code device} added, or replacing the device with the same id. */
    public Profile withDevice(Device device) {
        List<Device> replaced = new ArrayList<>();
        boolean found = false;
        for (Device d : devices) {
            if (d.id().equals(device.id())) {
                replaced.add(device);
                found = true;
            } else {
                replaced.add(d);
            }
        }
        if (!found) {
            replaced.add(device);
        }
        return new Profile(host, nominal, replaced, links, efficiency, quality, provenance);
    }

    /** This profile with {@code link} added, or replacing the link with the same id. */
    public Profile withLink(Link link) {
        List<Link> replaced = new ArrayList<>();
        boolean found = false;
        for (Link l : links) {
            if (l.id().equals(link.id())) {
                replaced.add(link);
                found = true;
            } else {
                replaced.add(l);
            }
        }
        if (!found) {
            replaced.add(link);
        }
        return new Profile(host, nominal, devices, replaced, efficiency, quality, provenance);
    }

    public Profile withQuality(Quality newQuality) {
        return new Profile(host, nominal, devices, links, efficiency, newQuality, provenance);
    }

    public Profile withProvenance(RunProvenance newProvenance) {
        return new Profile(host, nominal, devices, links, efficiency, quality, newProvenance);
    }

    /** This profile with its efficiency recomputed from its devices and nominal figures. */
    public Profile withDerivedEfficiency() {
        return new Profile(host, nominal, devices, links, Efficiency.derive(devices, nominal), quality, provenance);
    }
}
