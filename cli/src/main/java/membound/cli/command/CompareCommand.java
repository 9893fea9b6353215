package membound.cli.command;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import membound.calibrator.compare.Comparison;
import membound.calibrator.compare.Figure;
import membound.calibrator.compare.NominalComparison;
import membound.cli.options.FormatOption;
import membound.cli.options.OutputFormat;
import membound.cli.options.ProfilesDirOption;
import membound.profile.ProfileJson;
import membound.vocabulary.BadInputException;

/** {@code membound compare A B} and {@code membound compare A --nominal}. */
@Command(name = "compare", mixinStandardHelpOptions = true,
        description = {"Compares profile B with profile A figure by figure (ratio B/A), or A with its nominal "
                + "(datasheet) figures.",
                "A difference is called a change (better/worse) only when the measured spreads do not overlap "
                        + "(p5-p95, else worst-best); otherwise within-spread, or no-spread when a side has none."})
public final class CompareCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "a profile file, latest or latest:<host>")
    String a;

    @Parameters(index = "1", paramLabel = "B", arity = "0..1", description = "the profile to compare with A")
    String b;

    @Option(names = "--nominal", description = "compare A with its nominal figures instead of with B")
    boolean nominal;

    @Option(names = "--all", description = "list every figure (default: changes, and ceilings and compute)")
    boolean all;

    @Option(names = "--figure", paramLabel = "KEY", description = "only figures whose key starts with KEY, "
            + "e.g. cpu/ceiling/DRAM")
    String figure;

    @Mixin
    FormatOption format;

    @Mixin
    ProfilesDirOption profilesDir;

    @Override
    public Integer call() {
        OutputFormat output = format.value();
        if (nominal == (b != null)) {
            throw new BadInputException("compare must be given either profile B or --nominal: B="
                    + (b == null ? "absent" : b) + ", --nominal=" + nominal);
        }
        var store = profilesDir.store();
        CommandSupport.Named profileA = CommandSupport.read(store, a);
        PrintWriter out = spec.commandLine().getOut();
        if (nominal) {
            NominalComparison result = NominalComparison.of(profileA.profile(), profileA.path().toString());
            result = new NominalComparison(result.profile(),
                    CommandSupport.figure(result.rows(), NominalComparison.Row::key, figure));
            out.print(output == OutputFormat.JSON ? ProfileJson.toJson(result) : text(result));
        } else {
            CommandSupport.Named profileB = CommandSupport.read(store, b);
            Comparison result = Comparison.of(profileA.profile(), profileA.path().toString(), profileB.profile(),
                    profileB.path().toString());
            result = new Comparison(result.a(), result.b(),
                    CommandSupport.figure(result.figures(), Comparison.Row::key, figure));
            out.print(output == OutputFormat.JSON ? ProfileJson.toJson(result) : text(result, all || figure != null));
        }
        out.flush();
        return 0;
    }

    static String text(Comparison c, boolean all) {
        StringBuilder s = new StringBuilder();
        s.append("A  ").append(c.a()).append('\n').append("B  ").append(c.b()).append('\n');
        int width = c.figures().stream().mapToInt(r -> r.key().length()).max().orElse(10);
        s.append(String.format(Locale.ROOT, "%-" + width + "s  %14s  %14s  %7s  %s%n", "figure", "A", "B", "B/A",
                "verdict"));
        int better = 0;
        int worse = 0;
        int within = 0;
        int noSpread = 0;
        int hidden = 0;
        for (Comparison.Row r : c.figures()) {
            switch (r.verdict()) {
                case Comparison.BETTER -> better++;
                case Comparison.WORSE -> worse++;
                case Comparison.WITHIN_SPREAD -> within++;
                case Comparison.NO_SPREAD -> noSpread++;
                default -> { }
            }
            boolean change = Comparison.BETTER.equals(r.verdict()) || Comparison.WORSE.equals(r.verdict());
            boolean headline = r.key().contains("/ceiling/") || r.key().contains("/compute/")
                    || r.key().startsWith("link/") || r.key().contains("/latency/");
            if (!all && !change && !headline) {
                hidden++;
                continue;
            }
            s.append(String.format(Locale.ROOT, "%-" + width + "s  %14s  %14s  %7s  %s", r.key(),
                    r.valueA() == null ? "-" : Figure.format(r.unit(), r.valueA()),
                    r.valueB() == null ? "-" : Figure.format(r.unit(), r.valueB()),
                    r.ratio() == null ? "-" : String.format(Locale.ROOT, "%.3f", r.ratio()), r.verdict()));
            if (change) {
                s.append(" (A ").append(Figure.format(r.unit(), r.lowA())).append(" - ")
                        .append(Figure.format(r.unit(), r.highA())).append(", B ")
                        .append(Figure.format(r.unit(), r.lowB())).append(" - ")
                        .append(Figure.format(r.unit(), r.highB())).append(')');
            }
            s.append('\n');
        }
        s.append(String.format(Locale.ROOT, "%d changes (%d better, %d worse), %d within the spread, %d without a "
                + "spread%s%n", better + worse, better, worse, within, noSpread,
                hidden > 0 ? "; " + hidden + " unchanged entries not listed (--all lists them)" : ""));
        return s.toString().replace("\r\n", "\n");
    }

    static String text(NominalComparison c) {
        StringBuilder s = new StringBuilder();
        s.append("profile  ").append(c.profile()).append('\n');
        int width = c.rows().stream().mapToInt(r -> r.key().length()).max().orElse(10);
        s.append(String.format(Locale.ROOT, "%-" + width + "s  %16s  %16s  %8s  %s", "figure", "measured", "nominal",
                "ratio", "nominal source")).append('\n');
        for (NominalComparison.Row r : c.rows()) {
            s.append(String.format(Locale.ROOT, "%-" + width + "s  %16s  %16s  %8s  %s", r.key(),
                    Figure.format(r.unit(), r.measured()), r.nominal() == null ? "unknown"
                            : Figure.format(r.unit(), r.nominal()),
                    r.ratio() == null ? "-" : String.format(Locale.ROOT, "%.1f%%", r.ratio() * 100), r.nominalSource()))
                    .append('\n');
        }
        if (c.rows().isEmpty()) {
            s.append("no DRAM or compute ceilings to compare\n");
        }
        return s.toString();
    }
}
