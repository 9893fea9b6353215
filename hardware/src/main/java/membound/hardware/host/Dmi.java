package membound.hardware.host;

import java.util.ArrayList;
import java.util.List;

/** The firmware's name for the machine, from {@code /sys/class/dmi/id}; blank fields were not reported. */
public record Dmi(String sysVendor, String productName, String boardName) {

    public static final Dmi NONE = new Dmi("", "", "");

    public Dmi {
        sysVendor = sysVendor == null ? "" : sysVendor.trim();
        productName = productName == null ? "" : productName.trim();
        boardName = boardName == null ? "" : boardName.trim();
    }

    public boolean isEmpty() {
        return sysVendor.isEmpty() && productName.isEmpty() && boardName.isEmpty();
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        if (!sysVendor.isEmpty()) {
            parts.add("sys_vendor \"" + sysVendor + "\"");
        }
        if (!productName.isEmpty()) {
            parts.add("product_name \"" + productName + "\"");
        }
        if (!boardName.isEmpty()) {
            parts.add("board_name \"" + boardName + "\"");
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }
}
