package membound.calibrator.run;

import java.util.List;
import java.util.Locale;

import membound.hardware.host.LoadMonitor;

/**
 * What other processes did while a calibration ran: the measurements during which they used more than
 * {@link LoadMonitor#OTHER_CPUS_THRESHOLD} cpus, and their average over the whole run.
 *
 * @param monitored false where the load could not be read (no {@code /proc})
 */
record LoadReport(boolean monitored, double otherCpusOverall, List<Loaded> loaded, int measurements) {

    /** One measurement that shared the machine, and with how much. */
    record Loaded(String measurement, double otherCpus) {
    }

    LoadReport {
        loaded = List.copyOf(loaded);
    }

    static LoadReport unmonitored(int measurements) {
        return new LoadReport(false, 0, List.of(), measurements);
    }

    /** The quality flag's message, or null when no measurement shared the machine. */
    String message() {
        if (!monitored || loaded.isEmpty()) {
            return null;
        }
        StringBuilder text = new StringBuilder(String.format(Locale.ROOT,
                "other processes used more than %.2f cpus during %d of %d measurements (",
                LoadMonitor.OTHER_CPUS_THRESHOLD, loaded.size(), measurements));
        for (int i = 0; i < loaded.size(); i++) {
            Loaded l = loaded.get(i);
            text.append(i == 0 ? "" : "; ").append(l.measurement()).append(String.format(Locale.ROOT, ": %.2f", l.otherCpus()));
        }
        return text.append(String.format(Locale.ROOT, "), %.2f cpus on average over the run: those figures are a "
                + "share of the machine, not its ceiling; rerun when it is quiet", otherCpusOverall)).toString();
    }
}
