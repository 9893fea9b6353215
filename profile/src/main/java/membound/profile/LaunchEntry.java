package membound.profile;

/**
 * What starting a kernel costs on an accelerator: an empty kernel launched and waited for (the round trip a
 * synchronising call pays), and empty kernels launched back to back (the interval a stream of short kernels cannot
 * go below: the model's per-kernel floor).
 *
 * @param launchSyncNanos     one launch followed by a context synchronise, per sample
 * @param launchIntervalNanos launches back to back, per launch
 * @param provenance          how it was measured
 */
public record LaunchEntry(LatencyEntry.Nanos launchSyncNanos, LatencyEntry.Nanos launchIntervalNanos,
                          Provenance provenance) {

    public LaunchEntry {
        Checks.present("launch.launchSyncNanos", launchSyncNanos);
        Checks.present("launch.launchIntervalNanos", launchIntervalNanos);
        Checks.present("launch.provenance", provenance);
    }
}
