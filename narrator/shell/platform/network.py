"""Which of this machine's networks the tablets are likely on, by the names each system gives.

The QR code the laptop prints holds one address, so the first must be the Wi-Fi or the LAN the
tablets share, not a virtual machine's network, a container's bridge or a VPN. Each system names
those its own way: Linux ``docker0`` and ``virbr0``; macOS ``bridge100`` and ``utun3``; Windows
"vEthernet (WSL)", "VMware Network Adapter VMnet8", "Tailscale".
"""

import ipaddress

from narrator.shell import platform

VIRTUAL = {  # name prefixes, lower case
    platform.UNIX: ("docker", "br-", "veth", "virbr", "vmnet", "vboxnet", "tun", "tap", "wg", "zt", "tailscale",
                    "lo", "lxc", "lxd", "podman", "cni", "flannel"),
    platform.MACOS: ("bridge", "utun", "awdl", "llw", "vmenet", "vnic", "anpi", "ap", "gif", "stf", "feth", "lo",
                     "zt", "tailscale", "vboxnet", "vmnet"),
    platform.WINDOWS: ("vethernet", "vmware", "virtualbox", "hyper-v", "tailscale", "zerotier", "bluetooth",
                       "loopback", "npcap", "openvpn", "wireguard", "nordlynx", "tap-", "teredo", "isatap",
                       "local area connection*", "wsl", "docker"),
}
LIKELY = {  # the Wi-Fi and the wired LAN, first among the rest
    platform.UNIX: ("wl", "en", "eth"),
    platform.MACOS: ("en",),
    platform.WINDOWS: ("wi-fi", "wlan", "wireless", "ethernet"),
}


def rank(interface: str, address: str) -> tuple:
    """Sort key: real interfaces before virtual ones, a home network's private address before any
    other (a VPN's 100.64/10 is not private), the Wi-Fi and the LAN by their usual names first."""
    name = interface.lower()
    virtual = name.startswith(VIRTUAL[platform.SYSTEM])
    private = ipaddress.ip_address(address).is_private
    likely = name.startswith(LIKELY[platform.SYSTEM])
    return (virtual, not private, not likely, name)
