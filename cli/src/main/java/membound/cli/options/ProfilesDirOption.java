package membound.cli.options;

import java.nio.file.Path;

import picocli.CommandLine.Option;

import membound.calibrator.store.ProfileStore;

/** {@code --profiles-dir DIR}: where {@code latest} is looked up, and where calibrate and import write. */
public final class ProfilesDirOption {

    @Option(names = "--profiles-dir", paramLabel = "DIR",
            description = "the profiles directory: where latest is looked up, and where calibrate and import write "
                    + "(default: results/profiles of the repository)")
    Path directory;

    /** The profiles of the directory given, else of the repository. */
    public ProfileStore store() {
        return directory != null ? new ProfileStore(directory) : ProfileStore.repositoryDefault();
    }
}
