package membound.hardware.catalog;

import membound.vocabulary.BadInputException;
import membound.vocabulary.LinkKind;

/**
 * A link's nominal bandwidth in one direction. Datasheets often print the sum of both directions
 * ("900 GB/s bidirectional"); the figure here is half of that, and its source says so.
 *
 * @param from a device id of the platform, {@code "network"} for a port to other machines, or {@code "host"}
 *             for a host CPU the entry does not describe (a GPU board's PCIe slot)
 * @param to   likewise
 */
public record LinkSpec(String id, LinkKind kind, String from, String to, Figure bytesPerSecondPerDirection) {

    public LinkSpec {
        id = PlatformSpec.requireText("id", id);
        if (kind == null) {
            throw new BadInputException("kind must be given: kind=null, id=" + id);
        }
        from = PlatformSpec.requireText("from", from);
        to = PlatformSpec.requireText("to", to);
        if (bytesPerSecondPerDirection == null || !bytesPerSecondPerDirection.unit().equals(Figure.BYTES_PER_SECOND)) {
            throw new BadInputException("bytesPerSecondPerDirection must be a B/s figure: bytesPerSecondPerDirection="
                    + bytesPerSecondPerDirection + ", id=" + id);
        }
    }
}
