package membound.profile;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;

/**
 * How the profile as a whole was made.
 *
 * @param memboundVersion the membound version that wrote it
 * @param jmhVersion      the JMH version that ran the suite, absent when nothing was measured with JMH
 * @param settings        the settings that make two profiles comparable: calibration mode, JMH forks,
 *                        iterations and times, thread counts (written sorted by key). {@code membound fleet}
 *                        refuses to mix profiles whose settings differ.
 * @param commandLine     the command that wrote it
 * @param createdUtc      when, ISO-8601 UTC to the second ({@code 2025-11-29T15:57:03Z})
 * @param rawResultFile   the raw JMH result file kept beside the profile (a name in the same directory), if any
 * @param derivedFrom     earlier profiles this one was made from (by {@code membound import}), oldest first
 */
public record RunProvenance(String memboundVersion, String jmhVersion, SortedMap<String, String> settings,
                            String commandLine, String createdUtc, String rawResultFile,
                            List<Derivation> derivedFrom) {

    public RunProvenance {
        Checks.text("provenance.memboundVersion", memboundVersion);
        Checks.optionalText("provenance.jmhVersion", jmhVersion);
        settings = Checks.map("provenance.settings", settings);
        Checks.text("provenance.commandLine", commandLine);
        createdUtc = utc("provenance.createdUtc", createdUtc);
        Checks.optionalText("provenance.rawResultFile", rawResultFile);
        if (rawResultFile != null && (rawResultFile.contains("/") || rawResultFile.contains("\\"))) {
            throw Checks.bad("provenance.rawResultFile", "a file name in the profile's directory", rawResultFile);
        }
        derivedFrom = Checks.list("provenance.derivedFrom", derivedFrom);
    }

    public static RunProvenance of(String memboundVersion, String jmhVersion, Map<String, String> settings,
                                   String commandLine, Instant created, String rawResultFile) {
        return new RunProvenance(memboundVersion, jmhVersion, Checks.map("settings", settings), commandLine,
                created.truncatedTo(ChronoUnit.SECONDS).toString(), rawResultFile, List.of());
    }

    /** {@link #createdUtc} as an instant. */
    public Instant created() {
        return Instant.parse(createdUtc);
    }

    public RunProvenance withRawResultFile(String fileName) {
        return new RunProvenance(memboundVersion, jmhVersion, settings, commandLine, createdUtc, fileName,
                derivedFrom);
    }

    /**
     * The provenance of a profile derived from this one by {@code commandLine} at {@code created}: the
     * settings stay (the measurements are the same), the derivation is appended.
     */
    public RunProvenance derived(String memboundVersionNow, String commandLineNow, Instant created,
                                 String inputProfile) {
        List<Derivation> chain = new ArrayList<>(derivedFrom);
        chain.add(new Derivation(createdUtc, commandLine, inputProfile));
        return new RunProvenance(memboundVersionNow, jmhVersion, settings, commandLineNow,
                created.truncatedTo(ChronoUnit.SECONDS).toString(), rawResultFile, chain);
    }

    static String utc(String name, String text) {
        Checks.text(name, text);
        try {
            Instant instant = Instant.parse(text);
            if (!text.endsWith("Z")) {
                throw Checks.bad(name, "an ISO-8601 UTC time such as 2025-11-29T15:57:03Z", text);
            }
            return instant.toString();
        } catch (DateTimeParseException e) {
            throw Checks.bad(name, "an ISO-8601 UTC time such as 2025-11-29T15:57:03Z", text);
        }
    }

    /**
     * One earlier profile.
     *
     * @param createdUtc   when that profile was written
     * @param commandLine  the command that wrote it
     * @param file         its file name
     */
    public record Derivation(String createdUtc, String commandLine, String file) {
        public Derivation {
            createdUtc = utc("derivedFrom.createdUtc", createdUtc);
            Checks.text("derivedFrom.commandLine", commandLine);
            Checks.text("derivedFrom.file", file);
        }
    }
}
