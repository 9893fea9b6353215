package membound.model.machine;

import java.util.Locale;

import membound.vocabulary.BadInputException;

/**
 * A connection a device sends data over: to its host (PCIe, NVLink-C2C), to peer devices in the
 * same box (NVLink), or to other machines (Ethernet/InfiniBand). The bandwidth is per direction,
 * as collective algorithms use it.
 */
public record Link(String id, String name, Kind kind, Ceiling bandwidth, double latencySeconds, String latencySource) {

    public enum Kind {
        /** Device to host memory: what offloading goes over. */
        HOST,
        /** Device to device in one machine. */
        PEER,
        /** Machine to machine. */
        NETWORK;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /**
         * What a link of this kind carries for the model: NVLink between GPUs is peer traffic, a network port
         * machine to machine, PCIe and NVLink-C2C reach the host's memory, except a C2C link between two devices of
         * the same kind (two Grace CPUs), which is peer traffic.
         */
        public static Kind of(membound.vocabulary.LinkKind kind, boolean betweenLikeDevices) {
            return switch (kind) {
                case NVLINK -> PEER;
                case NETWORK -> NETWORK;
                case PCIE -> HOST;
                case C2C -> betweenLikeDevices ? PEER : HOST;
                // A link of unknown kind was imported from a collective or a copy between devices: it is taken
                // as the slowest role that carries such traffic, never as the host memory offloading goes to.
                case UNKNOWN -> NETWORK;
            };
        }
    }

    public Link {
        if (id == null || id.isBlank() || kind == null || bandwidth == null) {
            throw new BadInputException("link needs an id, a kind and a bandwidth");
        }
        if (!(latencySeconds >= 0) || Double.isInfinite(latencySeconds)) {
            throw new BadInputException("latencySeconds must be zero or positive: latencySeconds=" + latencySeconds);
        }
        if (name == null) {
            name = id;
        }
    }
}
