# The guided tour of the default scenario (a 3-replica nginx Deployment), one stop per step
# of its life (app/src/state/tour.rs). Each stop has a -title and a -body, on one line each.

tour-apply-title = kubectl apply sends the Deployment
tour-apply-body = kubectl read the file, asked the API server whether the Deployment exists (404: not yet), and now POSTs it. Everything in Kubernetes goes through the kube-apiserver: no component talks to another directly. The Flow shows this request as an arrow from kubectl to the kube-apiserver.
tour-admission-title = Who are you, may you, and is it valid?
tour-admission-body = Before anything is stored, the kube-apiserver authenticates the client (a client certificate of kubernetes-admin), authorizes the request with RBAC, runs the mutating admission plugins (defaults are filled in), validates the object, then runs the validating admission plugins such as ResourceQuota. Any of them can refuse the request.
tour-etcd-title = The Deployment is written to etcd
tour-etcd-body = The API server stores the object in etcd under /registry/deployments/default/nginx, in a transaction that only succeeds if the key does not exist yet. etcd gives every change a new revision: the etcd view shows the key, its value at each revision, and the diff between them.
tour-deployment-title = The Deployment controller creates a ReplicaSet
tour-deployment-body = The controller-manager watches Deployments. The watch event wakes the Deployment controller, which finds no ReplicaSet with this pod template and creates one, named after a hash of the template. Controllers only ever compare what is wanted with what exists and write the difference through the API.
tour-replicaset-title = The ReplicaSet controller creates the pods
tour-replicaset-body = The ReplicaSet wants 3 pods and has 0, so the ReplicaSet controller creates them: one first, then two more (slow start, so that a broken template fails fast). The pods exist now, in etcd, but they have no node yet.
tour-scheduler-title = The scheduler filters and scores the nodes
tour-scheduler-body = The scheduler watches pods without a node. For each one, filter plugins remove the nodes that cannot run it (not enough CPU or memory, taints, affinity), score plugins rate the rest from 0 to 100, and the highest total wins. The Scheduler view shows the whole table for this pod.
tour-binding-title = The binding: the pod gets its node
tour-binding-body = The scheduler does not start anything: it POSTs a Binding, and the API server writes spec.nodeName into the pod. That is the whole decision. The kubelet of that node is watching for pods bound to it.
tour-sandbox-title = The kubelet sets up the pod sandbox and its network
tour-sandbox-body = The kubelet on the node admits the pod, mounts its volumes, and asks the container runtime (over CRI) to run the pod sandbox: the pause container that holds the pod's network namespace. The CNI plugin then gives that namespace an interface and the pod's IP address. The Pod view shows these steps as a timeline.
tour-start-title = The image is pulled and the container started
tour-start-body = The runtime pulls nginx:1.27 (unless the node already has it), creates the container inside the sandbox and starts it. The kubelet reports each change in the pod's status through the API server, and records events such as Pulling, Pulled, Created and Started.
tour-ready-title = The pod is Ready
tour-ready-body = Once its containers run and pass their readiness checks, the kubelet sets the pod's Ready condition to True. Only Ready pods receive traffic from Services. The Deployment controller sees its ReplicaSet reach 3 ready replicas: the Deployment is available. That is the end of the tour; try another scenario from the gallery.
