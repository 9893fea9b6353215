package membound.benchmarks.suite;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

import membound.vocabulary.BadInputException;

/**
 * The {@code -Djmh.*} system properties, {@code jmh:run}'s way of passing options: {@code -Djmh.include=Triad},
 * {@code -Djmh.threads=1,2} (any benchmark parameter), {@code -Djmh.params=n=512;threads=1},
 * {@code -Djmh.args=...}, and JMH's own options under their long or short names ({@code -Djmh.forks=1},
 * {@code -Djmh.f=1}).
 */
public final class JmhProperties {

    /** {@code -Djmh.<key>} to JMH's own option, for the options people set most. */
    private static final Map<String, String> OPTIONS = new LinkedHashMap<>();

    static {
        for (String[] pair : new String[][] {
                {"exclude", "-e"}, {"forks", "-f"}, {"f", "-f"}, {"warmupIterations", "-wi"}, {"wi", "-wi"},
                {"iterations", "-i"}, {"i", "-i"}, {"warmupTime", "-w"}, {"w", "-w"}, {"time", "-r"}, {"r", "-r"},
                {"prof", "-prof"}, {"jvmArgsAppend", "-jvmArgsAppend"}, {"verbosity", "-v"}, {"v", "-v"},
                {"timeout", "-to"}, {"resultFile", "-rff"}, {"rff", "-rff"}, {"foe", "-foe"}}) {
            OPTIONS.put(pair[0], pair[1]);
        }
    }

    private JmhProperties() {
    }

    /**
     * JMH's command line {@code args}, with the {@code jmh.*} entries of {@code properties} turned into the
     * options they stand for.
     *
     * @throws BadInputException for a {@code jmh.*} property that means nothing here
     */
    public static String[] arguments(String[] args, Properties properties) {
        Set<String> parameters = SuiteBenchmark.allParameterNames();
        List<String> result = new ArrayList<>(Arrays.asList(args));
        for (String name : new TreeSet<>(properties.stringPropertyNames())) {
            if (!name.startsWith("jmh.")) {
                continue;
            }
            String key = name.substring("jmh.".length());
            String value = properties.getProperty(name).trim();
            if (key.equals("include")) {
                result.addAll(splitList(value));
            } else if (key.equals("params")) {
                for (String assignment : value.split(";")) {
                    if (!assignment.isBlank()) {
                        result.add("-p");
                        result.add(assignment.trim());
                    }
                }
            } else if (key.equals("args")) {
                result.addAll(Arrays.asList(value.split("\\s+")));
            } else if (parameters.contains(key)) {
                result.add("-p");
                result.add(key + "=" + value);
            } else if (OPTIONS.containsKey(key)) {
                result.add(OPTIONS.get(key));
                result.add(value);
            } else if (!key.equals("jvm") && !key.equals("mainClass") && !isJmhSystemProperty(key)) {
                throw new BadInputException("jmh property must be one of jmh.include, jmh.params, jmh.args, "
                        + String.join(", ", withPrefix(parameters)) + ", "
                        + String.join(", ", withPrefix(OPTIONS.keySet())) + ": " + name + "=" + value);
            }
        }
        return result.toArray(String[]::new);
    }

    /**
     * JMH's own system properties ({@code -Djmh.ignoreLock=true}, {@code -Djmh.blackhole.mode=...}): JMH reads
     * them itself, so they pass through untouched.
     */
    static boolean isJmhSystemProperty(String key) {
        return key.equals("ignoreLock") || key.equals("separateClasspathJAR") || key.equals("executor")
                || key.equals("tmpDir") || key.startsWith("blackhole.") || key.startsWith("stack.")
                || key.startsWith("perfasm.") || key.startsWith("perfnorm.") || key.startsWith("link.")
                || key.startsWith("executor.");
    }

    private static List<String> splitList(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static List<String> withPrefix(Collection<String> keys) {
        return keys.stream().map(k -> "jmh." + k).toList();
    }
}
