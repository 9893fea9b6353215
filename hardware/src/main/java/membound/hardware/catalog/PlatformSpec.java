package membound.hardware.catalog;

import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import membound.vocabulary.BadInputException;
import membound.vocabulary.DeviceKind;
import membound.vocabulary.LinkKind;

/**
 * A machine or part from the datasheet catalog: its devices and the links between them.
 *
 * @param id      lower-case with dashes, such as {@code dgx-spark}
 * @param aliases other names it is looked up by ({@code spark}, {@code gb10})
 */
public record PlatformSpec(String id, String name, List<String> aliases, List<DeviceSpec> devices,
                           List<LinkSpec> links) {

    /** Link ends outside the entry: other machines, or a host CPU the entry does not describe. */
    public static final Set<String> EXTERNAL_ENDS = Set.of("network", "host");

    private static final Pattern ID = Pattern.compile("[a-z0-9]+(-[a-z0-9]+)*");

    public PlatformSpec {
        id = requireText("id", id);
        if (!ID.matcher(id).matches()) {
            throw new BadInputException("id must be lower-case words joined by dashes: id=" + id);
        }
        name = requireText("name", name);
        aliases = List.copyOf(aliases);
        devices = List.copyOf(devices);
        links = List.copyOf(links);
        if (devices.isEmpty()) {
            throw new BadInputException("devices must not be empty: id=" + id);
        }
        Set<String> ids = new HashSet<>();
        for (DeviceSpec d : devices) {
            if (!ids.add(d.id())) {
                throw new BadInputException("device ids must be unique: device=" + d.id() + ", id=" + id);
            }
        }
        for (LinkSpec l : links) {
            for (String end : List.of(l.from(), l.to())) {
                if (!EXTERNAL_ENDS.contains(end) && !ids.contains(end)) {
                    throw new BadInputException("link ends must be devices of the platform, host or network: end="
                            + end + ", link=" + l.id() + ", id=" + id);
                }
            }
        }
    }

    public Optional<DeviceSpec> device(String deviceId) {
        return devices.stream().filter(d -> d.id().equals(deviceId)).findFirst();
    }

    public Optional<DeviceSpec> gpu() {
        return devices.stream().filter(d -> d.kind() == DeviceKind.GPU).findFirst();
    }

    public Optional<DeviceSpec> cpu() {
        return devices.stream().filter(d -> d.kind() == DeviceKind.CPU).findFirst();
    }

    /**
     * The memory bandwidth the CPU side sees: what a host measurement is compared with (273 GB/s on a
     * DGX Spark). Empty for an entry without a CPU, such as a GPU board.
     */
    public Optional<Figure> nominalHostMemoryBandwidth() {
        return cpu().map(DeviceSpec::memoryBandwidthBytesPerSecond);
    }

    /** True when CPU and GPU share one physical memory. */
    public boolean unifiedMemory() {
        return devices.stream().anyMatch(DeviceSpec::unifiedMemory);
    }

    public Optional<LinkSpec> link(LinkKind kind) {
        return links.stream().filter(l -> l.kind() == kind).findFirst();
    }

    static String requireText(String name, String value) {
        if (value == null || value.isBlank()) {
            throw new BadInputException(name + " must not be blank: " + name + "=" + value);
        }
        return value.trim();
    }
}
