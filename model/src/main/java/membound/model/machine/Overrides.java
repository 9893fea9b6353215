package membound.model.machine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import membound.vocabulary.BadInputException;
import membound.vocabulary.Precision;
import membound.vocabulary.units.Units;

/**
 * What-if figures from the command line: {@code --memory-bandwidth 232GB/s} and
 * {@code --peak-flops bf16=92T}, each optionally for one machine only ({@code rtx-5090:bf16=209T},
 * {@code h100:3TB/s}); without a machine prefix a figure applies to every machine.
 */
public record Overrides(List<Entry> entries) {

    public static final Overrides NONE = new Overrides(List.of());

    /** One figure: {@code machine} null for all machines; {@code precision} null for a memory bandwidth. */
    public record Entry(String machine, Precision precision, double value, String text) {
    }

    public Overrides {
        entries = entries == null ? List.of() : List.copyOf(entries);
    }

    public static Overrides parse(List<String> memoryBandwidths, List<String> peakFlops) {
        List<Entry> entries = new ArrayList<>();
        for (String text : memoryBandwidths == null ? List.<String>of() : memoryBandwidths) {
            String[] machineAndValue = splitMachine(text);
            entries.add(new Entry(machineAndValue[0], null,
                    Units.parseBandwidth("memory-bandwidth", machineAndValue[1]), "--memory-bandwidth " + text));
        }
        for (String text : peakFlops == null ? List.<String>of() : peakFlops) {
            String[] machineAndValue = splitMachine(text);
            String[] parts = machineAndValue[1].split("=", 2);
            if (parts.length != 2) {
                throw new BadInputException("peak-flops must be PRECISION=RATE such as bf16=92T: peak-flops=" + text);
            }
            entries.add(new Entry(machineAndValue[0], Precision.parseTraining("peak-flops precision", parts[0]),
                    Units.parseFlops("peak-flops", parts[1]), "--peak-flops " + text));
        }
        return new Overrides(entries);
    }

    /** {@code [machine, value]}: a prefix up to the first colon names a machine. */
    private static String[] splitMachine(String text) {
        if (text == null) {
            return new String[] {null, ""};
        }
        int colon = text.indexOf(':');
        return colon < 0 ? new String[] {null, text.trim()}
                : new String[] {text.substring(0, colon).trim().toLowerCase(Locale.ROOT), text.substring(colon + 1).trim()};
    }

    /** Memory bandwidth for the machine with these names, or null. */
    public Double memoryBandwidth(List<String> names) {
        Double found = null;
        for (Entry e : entries) {
            if (e.precision() == null && applies(e, names)) {
                found = e.value();
            }
        }
        return found;
    }

    /** Peak FLOP/s overrides for the machine with these names. */
    public Map<Precision, Double> peakFlops(List<String> names) {
        Map<Precision, Double> found = new EnumMap<>(Precision.class);
        for (Entry e : entries) {
            if (e.precision() != null && applies(e, names)) {
                found.put(e.precision(), e.value());
            }
        }
        return Collections.unmodifiableMap(found);
    }

    private static boolean applies(Entry e, List<String> names) {
        if (e.machine() == null) {
            return true;
        }
        for (String name : names) {
            if (name != null && normalize(name).equals(normalize(e.machine()))) {
                return true;
            }
        }
        return false;
    }

    private static String normalize(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9+]+", "-");
    }
}
