package membound.trace;

import java.util.List;

/**
 * One rank's trace as read: where it came from and in what form, the rank and world size the job recorded, the
 * devices it ran on, its steps and its timed work.
 *
 * @param file the file read, as named
 * @param format the form it was in ("kineto", "chrome-trace list", "nsys sqlite")
 * @param rank the rank the trace names ({@code distributedInfo.rank}), or -1 where it names none
 * @param worldSize the job's world size, or 0 where the trace does not say
 * @param devices the devices' names ({@code deviceProperties}, the export's GPU table), perhaps empty
 * @param gpu true when the activities are GPU work; false when the trace has none and they are CPU operators
 * @param shapes true when the trace recorded operators' input shapes ({@code record_shapes})
 * @param steps the steps, in time order; the whole trace as one where the job marked none
 * @param notes what the reader noticed and the user should know (no GPU events, no steps marked)
 */
public record RankTrace(String file, String format, int rank, int worldSize, List<String> devices, boolean gpu,
                        boolean shapes, List<StepRange> steps, Activities activities, List<String> notes) {

    public RankTrace {
        devices = List.copyOf(devices);
        steps = List.copyOf(steps);
        notes = List.copyOf(notes);
    }

    /** The rank's label: its recorded rank, else its file. */
    public String label() {
        return rank >= 0 ? "rank " + rank : file;
    }
}
