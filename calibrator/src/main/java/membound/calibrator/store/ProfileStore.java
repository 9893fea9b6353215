package membound.calibrator.store;

import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import membound.vocabulary.BadInputException;
import membound.vocabulary.files.AtomicFiles;
import membound.vocabulary.files.ResultNames;
import membound.profile.Profile;
import membound.profile.ProfileDirectory;
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

    public static final String RAW_SUFFIX = ProfileDirectory.RAW_SUFFIX;

    private final Path directory;
    private final ProfileDirectory profiles;
    private final Runnable beforePublish;

    public ProfileStore(Path directory) {
        this(directory, () -> { });
    }

    /** With a hook run after the bytes are on disk and before they get their name; for interruption tests. */
    ProfileStore(Path directory, Runnable beforePublish) {
        this.directory = directory;
        this.profiles = new ProfileDirectory(directory);
        this.beforePublish = beforePublish;
    }

    /**
     * The repository's store: {@code results/profiles} under the {@code membound.repositoryRoot} system
     * property (the launcher sets it), else under the working directory.
     */
    public static ProfileStore repositoryDefault() {
        return new ProfileStore(ProfileDirectory.repositoryDefault().directory());
    }

    public Path directory() {
        return directory;
    }

    /**
     * Checks that profiles can be written here before a calibration measures anything; a one-line error for a
     * read-only or full file system, or a file where the directory must be.
     */
    public void checkWritable() {
        try {
            AtomicFiles.checkWritable(directory);
        } catch (IOException e) {
            throw notWritable(e);
        }
    }

    private BadInputException notWritable(IOException e) {
        return new BadInputException("profile directory must be writable: directory=" + directory + ", problem="
                + membound.vocabulary.files.Leftovers.problem(e), e);
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
        String base = ResultNames.base(profile.host().hostname(), profile.provenance().created());
        for (int attempt = 1; attempt <= ResultNames.MAX_ATTEMPTS; attempt++) {
            String name = ResultNames.attempt(base, attempt);
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
                throw notWritable(e);
            }
        }
        throw ResultNames.nameTaken(directory, base, "profile");
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
    /** The profiles of this directory, oldest first. */
    public List<Path> list() {
        return profiles.list();
    }

    /** The newest profile, of {@code host} if it is given. */
    public Optional<Path> latest(String host) {
        return profiles.latest(host);
    }

    /** A profile named on the command line: an existing file, {@code latest} or {@code latest:<host>}. */
    public Path resolve(String reference) {
        return profiles.resolve(reference);
    }

    /** Whether a file name is a profile of a store (not a raw JMH result, not a temporary). */
    public static boolean isProfileFileName(String name) {
        return ProfileDirectory.isProfileFileName(name);
    }

    /** The host as it appears in file names. */
    public static String hostPart(String hostname) {
        return ResultNames.hostPart(hostname);
    }
}
