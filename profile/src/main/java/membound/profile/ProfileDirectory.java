package membound.profile;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.AtomicFiles;
import membound.vocabulary.files.ResultNames;

/**
 * A directory of profiles as the calibrator keeps them, read side: {@code <host>-<yyyyMMdd'T'HHmmss'Z'>.json}
 * (UTC; {@code -2}, {@code -3} ... for a second profile in the same second), the raw JMH result beside each
 * as {@code <same base>.jmh.json}. {@code latest} and {@code latest:<host>} are resolved by the timestamp in
 * the names, then the counter, so no pointer file can go stale. Every command that takes a profile resolves
 * it here; the calibrator's store writes into the same layout.
 */
public record ProfileDirectory(Path directory) {

    /** {@code host-20251129T120000Z.json} or {@code host-20251129T120000Z-2.json}. */
    static final Pattern NAME = ResultNames.NAME;
    /** The raw JMH result kept beside a profile. */
    public static final String RAW_SUFFIX = ".jmh.json";
    /** Temporary files of an atomic write start with this; they are never profiles. */
    public static final String TEMP_PREFIX = AtomicFiles.TEMP_PREFIX;

    public ProfileDirectory {
        Checks.present("directory", directory);
    }

    /**
     * The repository's profiles: {@code results/profiles} under the {@code membound.repositoryRoot} system
     * property (the launcher sets it), else under the working directory.
     */
    public static ProfileDirectory repositoryDefault() {
        return new ProfileDirectory(ResultNames.repositoryResults("profiles"));
    }

    /** The profiles here, oldest first. */
    public List<Path> list() {
        if (!Files.isDirectory(directory)) {
            return List.of();
        }
        List<Path> profiles = new ArrayList<>();
        try (Stream<Path> files = Files.list(directory)) {
            files.filter(p -> isProfileFileName(p.getFileName().toString()) && Files.isRegularFile(p))
                    .forEach(profiles::add);
        } catch (IOException e) {
            throw new BadInputException("profile directory must be readable: directory=" + directory
                    + ", problem=" + e.getMessage(), e);
        }
        profiles.sort(Comparator.comparing(ProfileDirectory::stamp).thenComparingInt(ProfileDirectory::counter)
                .thenComparing(p -> p.getFileName().toString()));
        return profiles;
    }

    /** The newest profile, of {@code host} if it is given. */
    public Optional<Path> latest(String host) {
        List<Path> all = list();
        for (int i = all.size() - 1; i >= 0; i--) {
            if (host == null || host(all.get(i)).equals(hostPart(host))) {
                return Optional.of(all.get(i));
            }
        }
        return Optional.empty();
    }

    /** A profile named on the command line: an existing file, {@code latest} or {@code latest:<host>}. */
    public Path resolve(String reference) {
        if (reference.equals("latest") || reference.startsWith("latest:")) {
            String host = reference.equals("latest") ? null : reference.substring("latest:".length());
            if (host != null && host.isBlank()) {
                throw new BadInputException("profile must be a file, latest or latest:<host>: profile=" + reference);
            }
            return latest(host).orElseThrow(() -> new BadInputException("profile " + reference
                    + " must exist: directory=" + directory + ", profiles=" + list().size()
                    + (host == null ? "" : ", host=" + host) + " (membound calibrate writes one)"));
        }
        Path path = membound.vocabulary.files.PathNames.of("profile", reference);
        if (!Files.exists(path)) {
            throw new BadInputException("profile must be an existing file, latest or latest:<host>: profile="
                    + reference);
        }
        return path;
    }

    /** Whether a file name is a profile (not a raw JMH result, not a temporary). */
    public static boolean isProfileFileName(String name) {
        return !name.startsWith(TEMP_PREFIX) && !name.endsWith(RAW_SUFFIX) && NAME.matcher(name).matches();
    }

    /** The host as it appears in file names: characters other than letters, digits, '.', '_' and '-' become '_'. */
    public static String hostPart(String hostname) {
        return ResultNames.hostPart(hostname);
    }

    private static String stamp(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        return m.matches() ? m.group(2) : "";
    }

    private static int counter(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        return m.matches() && m.group(3) != null ? Integer.parseInt(m.group(3)) : 1;
    }

    private static String host(Path p) {
        Matcher m = NAME.matcher(p.getFileName().toString());
        return m.matches() ? m.group(1) : "";
    }
}
