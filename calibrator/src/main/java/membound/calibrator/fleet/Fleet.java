package membound.calibrator.fleet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import membound.calibrator.compare.Figure;
import membound.calibrator.compare.Figures;
import membound.calibrator.store.ProfileStore;
import membound.vocabulary.BadInputException;
import membound.profile.Profile;
import membound.profile.ProfileJson;

/**
 * Many nodes' profiles read as one fleet: per figure the minimum, median and maximum over the nodes,
 * the spread ({@code (max − min) / median}), and the nodes more than {@code threshold} worse than the
 * fleet median (below it for bandwidth and FLOP rates, above it for latencies). The median of an even
 * number of nodes is the mean of the middle two.
 *
 * <p>Profiles measured with different settings (the {@code provenance.settings} map and the JMH version)
 * are not comparable: the fleet refuses them, naming the settings that differ, unless told to mix them.
 * A node with several profiles counts once, with its newest.
 *
 * @param directory  where the profiles were read from
 * @param threshold  fraction of the median (0.10 = 10%)
 * @param nodes      one per node, sorted by name
 * @param skipped    profiles not used, and why
 * @param settings   the settings every profile shares (with mixed settings: those they share)
 * @param mixedSettings settings that differ, when mixing was allowed; empty otherwise
 * @param figures    one per figure key, sorted
 * @param standouts  nodes with at least one figure beyond the threshold, most such figures first
 */
public record Fleet(String directory, double threshold, List<Node> nodes, List<String> skipped,
                    SortedMap<String, String> settings, SortedMap<String, String> mixedSettings,
                    List<FleetFigure> figures, List<Standout> standouts) {

    /** The documented default: a node more than 10% below the fleet median stands out. */
    public static final double DEFAULT_THRESHOLD = 0.10;

    /**
     * @param name    the host name
     * @param file    its profile
     * @param created when the profile was made
     */
    public record Node(String name, String file, String created) {
    }

    /**
     * @param key      the figure (see {@link Figures})
     * @param unit     its unit
     * @param higherIsBetter false for latencies
     * @param nodes    nodes that have it
     * @param min      lowest value
     * @param median   median value
     * @param max      highest value
     * @param spread   (max − min) / median
     * @param outliers nodes beyond the threshold
     */
    public record FleetFigure(String key, String unit, boolean higherIsBetter, int nodes, double min, double median,
                              double max, double spread, List<Outlier> outliers) {
    }

    /**
     * @param node              the node
     * @param value             its value
     * @param relativeToMedian  value / median − 1 (−0.17 is 17% below)
     */
    public record Outlier(String node, double value, double relativeToMedian) {
    }

    /**
     * @param node      the node
     * @param figures   how many of its figures are beyond the threshold
     * @param of        how many figures it has
     * @param worstKey  the figure furthest from the median
     * @param worstRelativeToMedian that figure's value / median − 1
     */
    public record Standout(String node, int figures, int of, String worstKey, double worstRelativeToMedian) {
    }

    /** A profile and the file it came from. */
    public record Member(Path file, Profile profile) {
    }

    /**
     * Reads every profile under {@code directory} (three levels deep: one folder per node is fine), whatever the
     * files are called: a profile names its own host and time, so files renamed per node (as people collect them)
     * read as well as the store's {@code <host>-<time>.json}. Other JSON beside them (a fleet summary, JMH's raw
     * results, a temporary of an atomic write) is passed over; a file that says it is a profile and is not a valid
     * one is an error. A folder named {@code examples} below the directory is passed over: the repository's
     * example profiles under {@code results/profiles/examples/} are made up, and no node of anyone's fleet.
     */
    public static List<Member> read(Path directory) {
        if (!Files.isDirectory(directory)) {
            throw new BadInputException("fleet directory must be an existing directory: directory=" + directory);
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory, 3)) {
            files = walk.filter(p -> Files.isRegularFile(p) && isCandidate(p.getFileName().toString())
                    && !underExamples(directory, p)).sorted().toList();
        } catch (IOException e) {
            throw new BadInputException("fleet directory must be readable: directory=" + directory + ", problem="
                    + e.getMessage(), e);
        }
        List<Member> members = new ArrayList<>();
        for (Path file : files) {
            byte[] bytes = membound.vocabulary.files.InputFiles.readBytes(file, "profile",
                    membound.vocabulary.files.InputFiles.Kind.PROFILE);
            if (ProfileStore.isProfileFileName(file.getFileName().toString()) || ProfileJson.claimsToBeAProfile(bytes)) {
                members.add(new Member(file, ProfileJson.read(bytes, file.toString())));
            }
        }
        if (members.isEmpty()) {
            throw new BadInputException("fleet directory must contain membound profiles (JSON files with \"schema\": "
                    + "\"membound-profile\", under any name): directory=" + directory);
        }
        return List.copyOf(members);
    }

    private static boolean underExamples(Path directory, Path file) {
        Path folders = directory.relativize(file).getParent();
        if (folders != null) {
            for (Path folder : folders) {
                if (folder.toString().equals(EXAMPLES)) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The folder of made-up example profiles, passed over in a fleet. */
    static final String EXAMPLES = "examples";

    private static boolean isCandidate(String name) {
        return name.endsWith(".json") && !name.endsWith(ProfileStore.RAW_SUFFIX)
                && !name.startsWith(membound.vocabulary.files.AtomicFiles.TEMP_PREFIX);
    }

    public static Fleet of(String directory, List<Member> members, double threshold, boolean allowMixedSettings) {
        if (!(threshold > 0 && threshold < 1)) {
            throw new BadInputException("--threshold must be between 0% and 100%: --threshold=" + threshold);
        }
        // One profile per node: the newest.
        Map<String, Member> byNode = new TreeMap<>();
        List<String> skipped = new ArrayList<>();
        for (Member m : members) {
            String node = m.profile().host().hostname();
            Member other = byNode.get(node);
            if (other == null) {
                byNode.put(node, m);
            } else {
                Member newer = created(m).isAfter(created(other)) ? m : other;
                Member older = newer == m ? other : m;
                byNode.put(node, newer);
                skipped.add(older.file() + " (an older profile of " + node + ")");
            }
        }
        List<Member> used = new ArrayList<>(byNode.values());
        SortedMap<String, String> differing = differingSettings(used);
        if (!differing.isEmpty() && !allowMixedSettings) {
            throw new BadInputException("fleet profiles must share measurement settings, or the spread would be the "
                    + "settings' and not the nodes' (pass --mixed-settings to summarize them anyway): "
                    + differing.entrySet().stream().limit(4)
                    .map(e -> e.getKey() + " differs (" + e.getValue() + ")").collect(Collectors.joining("; ")));
        }
        SortedMap<String, String> shared = sharedSettings(used);

        Map<String, SortedMap<String, Figure>> figuresByNode = new LinkedHashMap<>();
        for (Map.Entry<String, Member> e : byNode.entrySet()) {
            figuresByNode.put(e.getKey(), Figures.of(e.getValue().profile()));
        }
        TreeSet<String> keys = new TreeSet<>();
        figuresByNode.values().forEach(f -> keys.addAll(f.keySet()));
        List<FleetFigure> figures = new ArrayList<>();
        Map<String, List<Map.Entry<String, Outlier>>> outliersByNode = new TreeMap<>();
        for (String key : keys) {
            List<Map.Entry<String, Figure>> values = new ArrayList<>();
            figuresByNode.forEach((node, f) -> {
                if (f.containsKey(key)) {
                    values.add(Map.entry(node, f.get(key)));
                }
            });
            Figure first = values.get(0).getValue();
            double[] sorted = values.stream().mapToDouble(v -> v.getValue().value()).sorted().toArray();
            double median = median(sorted);
            double min = sorted[0];
            double max = sorted[sorted.length - 1];
            List<Outlier> outliers = new ArrayList<>();
            for (Map.Entry<String, Figure> v : values) {
                double relative = v.getValue().value() / median - 1;
                boolean worse = first.higherIsBetter() ? relative < -threshold : relative > threshold;
                if (worse) {
                    Outlier o = new Outlier(v.getKey(), v.getValue().value(), relative);
                    outliers.add(o);
                    outliersByNode.computeIfAbsent(v.getKey(), k -> new ArrayList<>()).add(Map.entry(key, o));
                }
            }
            figures.add(new FleetFigure(key, first.unit(), first.higherIsBetter(), values.size(), min, median, max,
                    (max - min) / median, outliers));
        }
        List<Standout> standouts = new ArrayList<>();
        outliersByNode.forEach((node, list) -> {
            Map.Entry<String, Outlier> worst = list.stream()
                    .max(Comparator.comparingDouble(e -> Math.abs(e.getValue().relativeToMedian()))).orElseThrow();
            standouts.add(new Standout(node, list.size(), figuresByNode.get(node).size(), worst.getKey(),
                    worst.getValue().relativeToMedian()));
        });
        standouts.sort(Comparator.comparingInt(Standout::figures).reversed().thenComparing(Standout::node));
        List<Node> nodes = byNode.entrySet().stream().map(e -> new Node(e.getKey(), e.getValue().file().toString(),
                e.getValue().profile().provenance().createdUtc())).toList();
        return new Fleet(directory, threshold, nodes, skipped, shared, allowMixedSettings ? differing
                : new TreeMap<>(), figures, standouts);
    }

    /** {@code 10%}, {@code 7.5%} or {@code 0.1}. */
    public static double parseThreshold(String text) {
        String t = text.strip();
        try {
            double value = t.endsWith("%") ? Double.parseDouble(t.substring(0, t.length() - 1)) / 100
                    : Double.parseDouble(t);
            if (!(value > 0 && value < 1)) {
                throw new NumberFormatException();
            }
            return value;
        } catch (NumberFormatException e) {
            throw new BadInputException("--threshold must be a percentage between 0% and 100% such as 10%: "
                    + "--threshold=" + text);
        }
    }

    static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static Instant created(Member m) {
        return m.profile().provenance().created();
    }

    /** The settings that make profiles comparable: provenance.settings plus the JMH version. */
    static SortedMap<String, String> settingsOf(Profile p) {
        SortedMap<String, String> s = new TreeMap<>(p.provenance().settings());
        s.put("jmhVersion", p.provenance().jmhVersion() == null ? "none" : p.provenance().jmhVersion());
        return s;
    }

    private static SortedMap<String, String> differingSettings(List<Member> members) {
        TreeSet<String> keys = new TreeSet<>();
        members.forEach(m -> keys.addAll(settingsOf(m.profile()).keySet()));
        SortedMap<String, String> differing = new TreeMap<>();
        for (String key : keys) {
            Map<String, List<String>> filesByValue = new TreeMap<>();
            for (Member m : members) {
                String value = settingsOf(m.profile()).getOrDefault(key, "(absent)");
                filesByValue.computeIfAbsent(value, v -> new ArrayList<>()).add(m.file().getFileName().toString());
            }
            if (filesByValue.size() > 1) {
                differing.put(key, filesByValue.entrySet().stream()
                        .map(e -> e.getKey() + ": " + String.join(", ", e.getValue()))
                        .collect(Collectors.joining(" / ")));
            }
        }
        return differing;
    }

    private static SortedMap<String, String> sharedSettings(List<Member> members) {
        SortedMap<String, String> shared = new TreeMap<>(settingsOf(members.get(0).profile()));
        for (Member m : members) {
            SortedMap<String, String> s = settingsOf(m.profile());
            shared.entrySet().removeIf(e -> !e.getValue().equals(s.get(e.getKey())));
        }
        return shared;
    }

    /** {@code -17.3%}. */
    public static String percent(double fraction) {
        return String.format(Locale.ROOT, "%+.1f%%", fraction * 100);
    }
}
