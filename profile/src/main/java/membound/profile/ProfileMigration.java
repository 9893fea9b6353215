package membound.profile;

import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Reads an older profile as the current schema says, on its JSON tree before it is bound.
 *
 * <p>Version 1 kept a ceiling per measured kernel: Scale's and Add's beside Copy's and Triad's, and no update
 * ceiling (the model derived it from the copy entry's hardware bytes). Version 2 keeps one per access pattern, as the
 * calibrator's rule chooses it, so the model reads ceilings one to one. Migrating a version-1 device: a Scale ceiling
 * is dropped where the level has Copy's, else it becomes the level's copy ceiling (Add and Triad likewise); beside
 * each copy ceiling whose bandwidth entry has a hardware-byte figure goes the update ceiling, that figure's typical
 * value. The same holds for the derived efficiency ratios. Nothing is measured again and no figure changes.
 *
 * <p>Version 3 types what the ceiling rules decide by, and stores every ceiling the model reads: each bandwidth entry
 * carries the pattern its kernel stands for and the implementation that measured it (version 2 kept the kernel's name
 * and a provenance setting, {@code param.implementation}, which the rule read back); the memory ceilings include the
 * patterns nothing measured, each saying which pattern's figure it takes; and the compute ceilings are stored beside
 * the compute entries (version 2 left their choice to whoever read the profile). Migrating a version-2 profile applies
 * the calibrator's rules ({@link CeilingRules}) to what it stored: its measured ceilings stay as they are.
 *
 * <p>Version 4 says on a CPU whether its stores allocate ({@link WriteAllocation}), which its hardware-byte figures
 * assume. Every older membound counted write-allocate for every CPU without measuring it: migrating a profile of
 * version 1 to 3 gives each cpu whose bandwidth entries count hardware bytes the answer {@code assumed}, so its
 * figures, ceilings and predictions stay as they were, and it says that they were assumed, not measured.
 */
final class ProfileMigration {

    private ProfileMigration() {
    }

    /** The provenance setting in which versions 1 and 2 recorded the implementation that measured a figure. */
    static final String IMPLEMENTATION_SETTING = "param.implementation";

    /** The version-1 tree as version 2 (in place). */
    static void fromVersion1(ObjectNode root) {
        JsonNode devices = root.get("devices");
        if (devices != null && devices.isArray()) {
            for (JsonNode device : devices) {
                if (device.isObject()) {
                    migrateDevice((ObjectNode) device);
                }
            }
        }
        JsonNode efficiency = root.get("efficiency");
        if (efficiency != null && efficiency.get("bandwidth") instanceof ArrayNode ratios) {
            collapseStandIns(ratios, "deviceId");
        }
        root.put("schemaVersion", 2);
    }

    /** Why a migrated profile's hardware-byte figures count write-allocate. */
    static final String ASSUMED_BEFORE_VERSION_4 = "assumed, not measured: written before profile schema 4, when "
            + "membound counted write-allocate for every CPU";

    /**
     * The tree of version 1 to 3 with what version 4 says of write-allocation (in place): each cpu whose bandwidth
     * entries count hardware bytes (membound's own measurements; imports and GPUs count none) assumes it.
     */
    static void assumeWriteAllocation(ObjectNode root) {
        JsonNode devices = root.get("devices");
        if (devices == null || !devices.isArray()) {
            return;
        }
        for (JsonNode node : devices) {
            if (!(node instanceof ObjectNode device) || !"cpu".equals(text(device, "kind"))
                    || device.has("writeAllocation") || !(device.get("bandwidth") instanceof ArrayNode entries)) {
                continue;
            }
            boolean hardwareBytes = false;
            for (JsonNode entry : entries) {
                JsonNode hardware = entry.get("hardwareBytesPerSecond");
                hardwareBytes |= hardware != null && !hardware.isNull();
            }
            if (hardwareBytes) {
                ObjectNode assumed = device.objectNode();
                assumed.put("answer", WriteAllocation.Answer.ASSUMED.label());
                assumed.put("reason", ASSUMED_BEFORE_VERSION_4);
                device.set("writeAllocation", assumed);
            }
        }
    }

    /** The version-2 tree's bandwidth entries with the typed fields of version 3 (in place). */
    static void typeBandwidthEntries(ObjectNode root, java.util.function.Supplier<CeilingRules> rules) {
        JsonNode devices = root.get("devices");
        if (devices == null || !devices.isArray()) {
            return;
        }
        for (JsonNode device : devices) {
            if (!(device.get("bandwidth") instanceof ArrayNode entries)) {
                continue;
            }
            for (JsonNode node : entries) {
                if (!(node instanceof ObjectNode entry)) {
                    continue;
                }
                String kernel = text(entry, "kernel");
                if (kernel != null && !entry.has("pattern")) {
                    rules.get().patternOf(kernel).ifPresent(p -> {
                        entry.put("pattern", p.pattern().label());
                        if (p.standsIn()) {
                            entry.put("standsIn", true);
                        }
                    });
                }
                if (!entry.has("implementation")) {
                    entry.put("implementation", implementationOf(entry.get("provenance")).label());
                }
            }
        }
    }

    /** What the version-2 provenance said ran: its setting, else "imported" for an import, else unknown. */
    private static membound.vocabulary.Implementation implementationOf(JsonNode provenance) {
        String setting = text(provenance == null ? null : provenance.get("settings"), IMPLEMENTATION_SETTING);
        for (membound.vocabulary.Implementation implementation : membound.vocabulary.Implementation.values()) {
            if (implementation.label().equals(setting)) {
                return implementation;
            }
        }
        return "imported".equals(text(provenance, "kind")) ? membound.vocabulary.Implementation.IMPORTED
                : membound.vocabulary.Implementation.UNKNOWN;
    }

    /** A bound version-2 profile with the ceilings version 3 stores: stand-ins completed, compute ceilings chosen. */
    static Profile storeCeilings(Profile profile, java.util.function.Supplier<CeilingRules> rules) {
        Profile migrated = profile;
        for (Device device : profile.devices()) {
            if (device.levels().isEmpty() && device.compute().isEmpty()) {
                continue;
            }
            migrated = migrated.withDevice(device.withLevels(rules.get().complete(device.levels()))
                    .withComputeCeilings(rules.get().computeCeilings(device.compute())));
        }
        return migrated;
    }

    private static void migrateDevice(ObjectNode device) {
        if (!(device.get("levels") instanceof ArrayNode levels)) {
            return;
        }
        collapseStandIns(levels, "level");
        List<JsonNode> migrated = new ArrayList<>();
        for (JsonNode level : levels) {
            migrated.add(level);
            if (level.isObject() && "copy".equals(text(level, "access"))) {
                JsonNode entry = entry(device, text(level, "bandwidthId"));
                JsonNode hardware = entry == null ? null : entry.get("hardwareBytesPerSecond");
                if (hardware != null && hardware.isObject()) {
                    // Keys in the record's order, so that a migrated profile writes as a new one does.
                    ObjectNode update = ((ObjectNode) level).objectNode();
                    update.set("level", level.get("level"));
                    update.put("access", "update");
                    update.set("bytesPerSecond", typical(hardware));
                    update.set("statistic", level.get("statistic"));
                    update.put("byteCounting", "hardware");
                    update.set("bandwidthId", level.get("bandwidthId"));
                    JsonNode provenance = level.get("provenance");
                    update.set("provenance", provenance == null ? null : provenance.deepCopy());
                    migrated.add(update);
                }
            }
        }
        levels.removeAll();
        migrated.forEach(levels::add);
    }

    /**
     * Scale and Add stand in for Copy and Triad: where a group (a level, a device's ratios) has the kernel that
     * defines the pattern, the stand-in goes; otherwise it takes the pattern's name.
     */
    private static void collapseStandIns(ArrayNode items, String groupKey) {
        List<JsonNode> kept = new ArrayList<>();
        for (JsonNode item : items) {
            String access = text(item, "access");
            String pattern = "scale".equals(access) ? "copy" : "add".equals(access) ? "triad" : null;
            if (pattern == null) {
                kept.add(item);
                continue;
            }
            boolean defined = false;
            for (JsonNode other : items) {
                defined |= pattern.equals(text(other, "access")) && text(item, groupKey) != null
                        && text(item, groupKey).equals(text(other, groupKey));
            }
            if (!defined && item.isObject()) {
                ((ObjectNode) item).put("access", pattern);
                kept.add(item);
            }
        }
        items.removeAll();
        kept.forEach(items::add);
    }

    private static JsonNode entry(ObjectNode device, String id) {
        JsonNode bandwidth = device.get("bandwidth");
        if (id == null || bandwidth == null || !bandwidth.isArray()) {
            return null;
        }
        for (JsonNode entry : bandwidth) {
            if (id.equals(text(entry, "id"))) {
                return entry;
            }
        }
        return null;
    }

    /** A distribution's typical figure: its median, else its mean, else its best. */
    private static JsonNode typical(JsonNode distribution) {
        for (String key : new String[] {"median", "mean", "best"}) {
            JsonNode value = distribution.get(key);
            if (value != null && !value.isNull()) {
                return value;
            }
        }
        return distribution.get("best");
    }

    private static String text(JsonNode node, String key) {
        JsonNode value = node == null ? null : node.get(key);
        return value != null && value.isTextual() ? value.textValue() : null;
    }
}
