package membound.profile;

import java.util.ArrayList;
import java.util.List;

/**
 * What a reader should know before trusting the figures. Codes in use (docs/profile-schema.md lists
 * them with their thresholds): {@code noisy}, {@code working-set-too-small},
 * {@code fewer-threads-than-cores}, {@code load-seen}, {@code governor}, {@code transparent-huge-pages},
 * {@code no-spread}, {@code example}.
 *
 * @param flags one per finding
 */
public record Quality(List<Flag> flags) {

    public Quality {
        flags = Checks.list("quality.flags", flags);
    }

    public static Quality none() {
        return new Quality(List.of());
    }

    /** These flags and one more. */
    public Quality with(Flag flag) {
        List<Flag> more = new ArrayList<>(flags);
        more.add(flag);
        return new Quality(more);
    }

    /**
     * @param code     a stable code, lower-case with '-'
     * @param message  one line for people
     * @param deviceId the device it concerns, if one
     * @param subject  the figure it concerns (a bandwidth entry id, a link id), if one
     */
    public record Flag(String code, String message, String deviceId, String subject) {
        public Flag {
            Checks.id("flag.code", code);
            Checks.text("flag.message", message);
            Checks.optionalId("flag.deviceId", deviceId);
            Checks.optionalId("flag.subject", subject);
        }
    }
}
