package membound.calibrator.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import membound.hardware.BadInputException;
import membound.profile.Profile;
import membound.profile.ProfileJson;

/**
 * The profiles of {@code results/profiles/}: {@code <host>-<yyyyMMdd'T'HHmmss'Z'>.json}, UTC, named after
 * the profile's own host and creation time, with the raw JMH result beside it as
 * {@code <same base>.jmh.json}.
 *
 * <p>Every write is atomic and never replaces a file ({@link AtomicFiles}); a second profile of the same
 * host in the same second is named {@code -2}, {@code -3}, ... {@code latest} and {@code latest:<host>}
 * are resolved by the timestamp in the names (then the counter), so there is no pointer file to go stale
 * or to be half-written.
 */
public final class ProfileStore {

    /** {@code host-20251129T120000Z.json} or {@code host-20251129T120000Z-2.json}. */
    private static final Pattern NAME = Pattern.compile("^(.+)-(\\d{8}T\\d{6}Z)(?:-(\\d+))?\\.json$");
    private static final DateTimeFormatter STAMP =
            DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);
    private static final int MAX_ATTEMPTS = 1000;
    public static final String RAW_SUFFIX = ".jmh.json";

    private final Path directory;
    private final Runnable beforePublish;

    public ProfileStore(Path directory) {
        this(directory, () -> { });
    }

    /** With a hook run after the bytes are on disk and before they get their name; for interruption tests. */
    ProfileStore(Path directory, Runnable beforePublish) {
        this.directory = directory;
        this.beforePublish = beforePublish;
    }

    /**
     * The repository's store: {@code results/profiles} under the {@code membound.repositoryRoot} system
     * property (the launcher sets it), else under the working directory.
     */
    public static ProfileStore repositoryDefault() {
        String root = System.getProperty("membound.repositoryRoot");
        return new ProfileStore((root != null ? Path.of(root) : Path.of("")).resolve("results").resolve("profiles"));
    }

    public Path directory() {
        return directory;
    }

    /** Writes the profile under a new name; returns the path. */
    public Path save(Profile profile) {
        return write(profile, null);
    }

    /**
     * Writes the raw JMH result beside the profile and the profile with {@code rawResultFile} naming it;
     * the raw file is written first, so a profile never names a file that is missing.
     */
    public Path save(Profile profile, byte[] rawJmhResult) {
        return write(profile, rawJmhResult);
    }

    private Path write(Profile profile, byte[] raw) {
        String base = hostPart(profile.host().hostname()) + "-" + STAMP.format(profile.provenance().created());
        for (int attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
            String name = attempt == 1 ? base : base + "-" + attempt;
            Path target = directory.resolve(name + ".json");
            Path rawTarget = directory.resolve(name + RAW_SUFFIX);
            if (Files.exists(target) || (raw != null && Files.exists(rawTarget))) {
                continue;
            }
            try {
                Profile toWrite = profile;
                if (raw != null) {
                    AtomicFiles.writeNew(rawTarget, raw, () -> { });
                    toWrite = profile.withProvenance(profile.provenance().withRawResultFile(rawTarget.getFileName()
                            .toString()));
                }
                try {
                    AtomicFiles.writeNew(target, ProfileJson.toBytes(toWrite), beforePublish);
                } catch (IOException | RuntimeException e) {
                    if (raw != null) {
                        Files.deleteIfExists(rawTarget);
                    }
                    throw e;
                }
                return target;
            } catch (FileAlreadyExistsException e) {
                // Another writer took this name between our check and our link: take the next one.
            } catch (IOException e) {
                throw new BadInputException("profile directory must be writable: directory=" + directory
                        + ", problem=" + e.getMessage(), e);
            }
        }
        throw new BadInputException("profile name must be free: directory=" + directory + ", name=" + base
                + " (tried " + MAX_ATTEMPTS + " suffixes)");
    }

    /** Writes a profile to an exact path, atomically, refusing to replace an existing file. */
    public static Path saveAs(Profile profile, Path target) {
        try {
            AtomicFiles.writeNew(target, ProfileJson.toBytes(profile));
            return target;
        } catch (FileAlreadyExistsException e) {
            throw new BadInputException("--output must not exist (profiles are never overwritten): --output=" + target);
        } catch (IOException e) {
            throw new BadInputException("--output must be writable: --output=" + target + ", problem=" + e.getMessage(), e);
        }
    }

    /** The profile files of the store, oldest first (by the timestamp in the name, then the counter). */
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
        profiles.sort(Comparator.comparing((Path p) -> stamp(p)).thenComparingInt(ProfileStore::counter)
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

    /**
     * A profile named on the command line: an existing file, {@code latest} or {@code latest:<host>}.
     */
    public Path resolve(String reference) {
        if (reference.equals("latest") || reference.startsWith("latest:")) {
            String host = reference.equals("latest") ? null : reference.substring("latest:".length());
            if (host != null && host.isBlank()) {
                throw new BadInputException("profile must be a file, latest or latest:<host>: profile=" + reference);
            }
            return latest(host).orElseThrow(() -> new BadInputException("profile " + reference
                    + " must exist: directory=" + directory + ", profiles=" + list().size()
                    + (host == null ? "" : ", host=" + host)));
        }
        Path path = Path.of(reference);
        if (!Files.exists(path)) {
            throw new BadInputException("profile must be an existing file, latest or latest:<host>: profile="
                    + reference);
        }
        return path;
    }

    /** Whether a file name is a profile of a store (not a raw JMH result, not a temporary). */
    public static boolean isProfileFileName(String name) {
        return !name.startsWith(AtomicFiles.TEMP_PREFIX) && !name.endsWith(RAW_SUFFIX) && NAME.matcher(name).matches();
    }

    /** The host as it appears in file names: characters other than letters, digits, '.', '_' and '-' become '_'. */
    public static String hostPart(String hostname) {
        return hostname.replaceAll("[^A-Za-z0-9._-]", "_");
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
