package membound.export;

import membound.model.machine.Link;

/**
 * A link of the machine as a tool takes it: its bandwidth as {@link FigureLog} chose it, its latency where known,
 * and how many devices it joins. A profile that never measured a link of a kind takes its platform's datasheet link
 * of that kind (said, or refused with {@code --measured-only}).
 *
 * @param latencySeconds one-way latency of a small message; 0 where unknown ({@link #latencyKnown} false)
 * @param ranks          devices the link joins: the most ranks the profile's collective measurements had, else 2
 * @param ranksSource    where {@code ranks} came from
 */
record ExportLink(String id, Link.Kind kind, FigureLog.Chosen bandwidth, double latencySeconds, String latencySource,
                  int ranks, String ranksSource) {

    boolean latencyKnown() {
        return latencySeconds > 0;
    }

    /** The machine's first link of {@code kind}, or its platform's datasheet one; null if neither has one. */
    static ExportLink of(FigureLog log, Link.Kind kind) {
        ExportInput input = log.input();
        Link link = input.machine().link(kind);
        String what = kind.label() + " link bandwidth";
        FigureLog.Chosen bandwidth;
        if (link != null) {
            bandwidth = log.choose(what + " (" + link.id() + ")", link.bandwidth());
        } else if (input.fromProfile() && input.platform() != null && input.platform().link(kind) != null) {
            link = input.platform().link(kind);
            if (!link.bandwidth().hasDatasheet()) {
                return null;
            }
            bandwidth = log.datasheetStandIn(what + " (no " + kind.label() + " link in the profile; the catalog's "
                    + link.id() + " of " + input.platform().id() + ")", link.bandwidth().datasheet(),
                    link.bandwidth().datasheetSource());
        } else {
            return null;
        }
        int ranks = 2;
        String ranksSource = "2: the two ends of one link (no collective measurement gives a rank count)";
        if (input.fromProfile()) {
            String linkId = link.id();
            membound.profile.Link measured = input.profile().link(linkId).orElse(null);
            if (measured != null) {
                for (membound.profile.Link.Measurement m : measured.measurements()) {
                    if (m.ranks() != null && m.ranks() > ranks) {
                        ranks = m.ranks();
                        ranksSource = ranks + ": ranks of " + m.operation() + " in link " + linkId + " of "
                                + input.origin();
                    } else if (m.ranks() != null && m.ranks() == 2 && ranksSource.startsWith("2: the two")) {
                        ranksSource = "2: ranks of " + m.operation() + " in link " + linkId + " of " + input.origin();
                    }
                }
            }
        }
        return new ExportLink(link.id(), kind, bandwidth, link.latencySeconds(), link.latencySource(), ranks,
                ranksSource);
    }
}
