package membound.calibrator.store;

import java.nio.file.Path;
import java.time.Instant;

import membound.profile.Profile;
import membound.profile.ProfileJson;
import membound.profile.RunProvenance;

/**
 * A process for {@link ProfileStoreTest} to kill: writes profiles of {@code args[2]} into {@code args[0]}.
 * Mode {@code pause} stops after the bytes are on disk and before they get their name, and says so on
 * stdout; mode {@code loop} writes one profile after another until it is killed.
 */
public final class StoreWriterMain {

    public static void main(String[] args) throws Exception {
        Path directory = Path.of(args[0]);
        Profile profile = ProfileJson.read(Path.of(args[2]));
        if (args[1].equals("pause")) {
            new ProfileStore(directory, () -> {
                System.out.println("temporary-written");
                System.out.flush();
                try {
                    Thread.sleep(60_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }).save(profile);
            return;
        }
        ProfileStore store = new ProfileStore(directory);
        System.out.println("looping");
        System.out.flush();
        Instant start = Instant.parse("2030-01-01T00:00:00Z");
        for (int i = 0; ; i++) {
            RunProvenance p = profile.provenance();
            store.save(profile.withProvenance(RunProvenance.of(p.memboundVersion(), p.jmhVersion(), p.settings(),
                    p.commandLine(), start.plusSeconds(i), null)));
        }
    }
}
