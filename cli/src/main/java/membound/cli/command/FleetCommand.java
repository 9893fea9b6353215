package membound.cli.command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import membound.calibrator.compare.Figure;
import membound.calibrator.fleet.Fleet;
import membound.cli.options.FormatOption;
import membound.cli.options.OutputFormat;
import membound.profile.ProfileJson;

/** {@code membound fleet DIR}: many nodes' profiles as one fleet, and the nodes that stand out. */
@Command(name = "fleet", mixinStandardHelpOptions = true,
        description = {"Reads the profiles under DIR (one per node; a node's newest counts) and prints per figure "
                + "the min, median and max over the nodes, the spread, and the nodes more than --threshold "
                + "worse than the fleet median.",
                "Profiles measured with different settings are refused unless --mixed-settings is given."})
public final class FleetCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "directory of profiles (searched 3 levels deep)")
    Path directory;

    @Option(names = "--threshold", paramLabel = "PERCENT", description = "how far below the median a node "
            + "stands out (default: 10%%)")
    String threshold = "10%";

    @Option(names = "--mixed-settings", description = "summarize profiles measured with different settings")
    boolean mixedSettings;

    @Option(names = "--all", description = "list every figure (default: ceilings, compute, latency, links, "
            + "and any figure with a node beyond the threshold)")
    boolean all;

    @Option(names = "--figure", paramLabel = "KEY", description = "only figures whose key starts with KEY, "
            + "e.g. cpu/ceiling/DRAM")
    String figure;

    @Mixin
    FormatOption format;

    @Override
    public Integer call() {
        OutputFormat output = format.value();
        double limit = Fleet.parseThreshold(threshold);
        Fleet fleet = Fleet.of(directory.toString(), Fleet.read(directory), limit, mixedSettings);
        if (figure != null) {
            fleet = new Fleet(fleet.directory(), fleet.threshold(), fleet.nodes(), fleet.skipped(), fleet.settings(),
                    fleet.mixedSettings(), CommandSupport.figure(fleet.figures(), Fleet.FleetFigure::key, figure),
                    fleet.standouts());
        }
        PrintWriter out = spec.commandLine().getOut();
        out.print(output == OutputFormat.JSON ? ProfileJson.toJson(fleet) : text(fleet, all || figure != null));
        out.flush();
        return 0;
    }

    static String text(Fleet f, boolean all) {
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "fleet of %d node%s in %s; a node stands out when %.0f%% worse than "
                        + "the fleet median%n", f.nodes().size(), f.nodes().size() == 1 ? "" : "s", f.directory(),
                f.threshold() * 100));
        s.append("settings: ").append(String.join(", ", f.settings().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue()).toList())).append('\n');
        s.append("nodes: ").append(nodeNames(f.nodes())).append('\n');
        if ("smoke".equals(f.settings().get("mode"))) {
            s.append("smoke profiles (calibrate --smoke): tiny working sets and one short iteration check the "
                    + "machinery; their figures are not the nodes' ceilings\n");
        }
        if (!f.mixedSettings().isEmpty()) {
            f.mixedSettings().forEach((k, v) -> s.append("MIXED SETTINGS: ").append(k).append(" differs (").append(v)
                    .append(")\n"));
        }
        for (String skipped : f.skipped()) {
            s.append("skipped: ").append(skipped).append('\n');
        }
        int width = f.figures().stream().mapToInt(x -> x.key().length()).max().orElse(10);
        s.append(String.format(Locale.ROOT, "%-" + width + "s  %5s  %14s  %14s  %14s  %7s  %s%n", "figure", "nodes",
                "min", "median", "max", "spread", "beyond threshold"));
        int hidden = 0;
        for (Fleet.FleetFigure x : f.figures()) {
            boolean headline = x.key().contains("/ceiling/") || x.key().contains("/compute/")
                    || x.key().contains("/latency/") || x.key().startsWith("link/");
            if (!all && !headline && x.outliers().isEmpty()) {
                hidden++;
                continue;
            }
            s.append(String.format(Locale.ROOT, "%-" + width + "s  %5d  %14s  %14s  %14s  %6.1f%%  %s%n", x.key(),
                    x.nodes(), Figure.format(x.unit(), x.min()), Figure.format(x.unit(), x.median()),
                    Figure.format(x.unit(), x.max()), x.spread() * 100, String.join(", ", x.outliers().stream()
                            .map(o -> o.node() + " " + Fleet.percent(o.relativeToMedian())).toList())));
        }
        if (hidden > 0) {
            s.append(hidden).append(" figures without a node beyond the threshold not listed (--all lists them)\n");
        }
        if (f.standouts().isEmpty()) {
            s.append("no node stands out\n");
        }
        for (Fleet.Standout o : f.standouts()) {
            s.append(String.format(Locale.ROOT, "stands out: %s, %d of %d figures beyond the threshold (worst %s %s)%n",
                    o.node(), o.figures(), o.of(), o.worstKey(), Fleet.percent(o.worstRelativeToMedian())));
        }
        return s.toString().replace("\r\n", "\n");
    }

    /** The first {@value #NODES_LISTED} node names, then how many more. */
    static String nodeNames(List<Fleet.Node> nodes) {
        String listed = String.join(", ", nodes.stream().limit(NODES_LISTED).map(Fleet.Node::name).toList());
        return nodes.size() <= NODES_LISTED ? listed : listed + " and " + (nodes.size() - NODES_LISTED) + " more";
    }

    /** A fleet of hundreds of nodes lists its standouts by name, not every node. */
    static final int NODES_LISTED = 16;
}
