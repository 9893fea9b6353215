package membound.hardware.host;

import java.util.List;
import java.util.TreeSet;

import membound.vocabulary.BadInputException;

/** The kernel's cpu list format, {@code 0-4,10-14}: parsing and printing. */
public final class CpuList {

    private static final int MAX_CPU = 1 << 16;

    private CpuList() {
    }

    /** Parses {@code 0-4,10}; throws {@link IllegalArgumentException} naming the text if it is not a cpu list. */
    public static List<Integer> parse(String text) {
        TreeSet<Integer> cpus = new TreeSet<>();
        String trimmed = text.trim();
        if (trimmed.isEmpty()) {
            throw new BadInputException("cpu list must not be empty: list=\"" + text + "\"");
        }
        for (String part : trimmed.split(",")) {
            String[] range = part.trim().split("-", -1);
            try {
                int from = Integer.parseInt(range[0].trim());
                int to = range.length == 2 ? Integer.parseInt(range[1].trim()) : from;
                if (range.length > 2 || from < 0 || to < from || to > MAX_CPU) {
                    throw new NumberFormatException();
                }
                for (int cpu = from; cpu <= to; cpu++) {
                    cpus.add(cpu);
                }
            } catch (NumberFormatException e) {
                throw new BadInputException("cpu list must read like 0-4,10: list=\"" + trimmed + "\"");
            }
        }
        return List.copyOf(cpus);
    }

    /** Prints sorted cpus as ranges: {@code [0,1,2,5]} becomes {@code 0-2,5}. */
    public static String format(List<Integer> cpus) {
        List<Integer> sorted = cpus.stream().sorted().distinct().toList();
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (out.length() > 0) {
                out.append(',');
            }
            out.append(sorted.get(i));
            if (j > i) {
                out.append('-').append(sorted.get(j));
            }
            i = j + 1;
        }
        return out.toString();
    }
}
