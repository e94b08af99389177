//! Authentication: who is making a request. kubeplay's kubeconfig holds the cluster admin's
//! client certificate; components authenticate as their own identities.

/// The authenticated user (`user.Info`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UserInfo {
    pub name: String,
    pub groups: Vec<String>,
}

impl UserInfo {
    pub fn new(name: &str, groups: &[&str]) -> Self {
        UserInfo {
            name: name.to_string(),
            groups: groups.iter().map(|g| g.to_string()).collect(),
        }
    }

    pub fn in_group(&self, group: &str) -> bool {
        self.groups.iter().any(|g| g == group)
    }
}
