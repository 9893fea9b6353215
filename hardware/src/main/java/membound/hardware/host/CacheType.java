package membound.hardware.host;

import java.util.Locale;

/** What a cache holds, as sysfs {@code cache/index*&#47;type} names it. */
public enum CacheType {
    DATA,
    INSTRUCTION,
    UNIFIED;

    /** True for caches that data loads and stores go through: what a bandwidth benchmark exercises. */
    public boolean holdsData() {
        return this != INSTRUCTION;
    }

    /** Reads sysfs's {@code Data}, {@code Instruction}, {@code Unified}; empty for anything else. */
    static java.util.Optional<CacheType> fromSysfs(String text) {
        return switch (text.trim().toLowerCase(Locale.ROOT)) {
            case "data" -> java.util.Optional.of(DATA);
            case "instruction" -> java.util.Optional.of(INSTRUCTION);
            case "unified" -> java.util.Optional.of(UNIFIED);
            default -> java.util.Optional.empty();
        };
    }
}
